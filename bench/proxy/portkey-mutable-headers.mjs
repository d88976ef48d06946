/**
 * Preloaded (`node --import`) into Portkey's gateway by bench/proxy/portkey.ts. The gateway's
 * Node build (1.15.2) appends its `x-portkey-*` headers to the upstream's own `fetch` Response
 * on the streaming path, whose headers Node's fetch marks immutable: every SSE call then fails
 * with 500 "Something went wrong" (`TypeError: immutable`; Portkey-AI/gateway issues 1389 and
 * 1550). The fix proposed there (pull request 1551) copies the response into a new Response
 * before the headers are touched; this does the same at the fetch boundary, one wrapper object
 * per upstream call, the body stream passed on untouched.
 */
const upstreamFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const res = await upstreamFetch(...args);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) });
};
