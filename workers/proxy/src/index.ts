/**
 * Capture proxy worker (stub until the capture-proxy issue lands): answers 501 so an
 * application pointed at it fails loudly instead of silently losing calls.
 */
export default {
  async fetch(): Promise<Response> {
    return Response.json({ detail: "the capture proxy is not implemented yet" }, { status: 501 });
  },
} satisfies ExportedHandler;
