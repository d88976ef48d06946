/**
 * RAG prompts recognised by their slots (issue 31.3: documents wherever applications put them):
 * the known framework defaults, a copy of LangChain's without its persona sentence, and any
 * prompt on the shared Context / Question / Answer slots, in either order.
 */
import { describe, expect, it } from "vitest";
import { templateParts } from "../../../src/scoring/rag-templates";

const CONTEXT = "Water damage claims need photos of the damage and the plumber's invoice.\nFile them within 30 days in the app.";

describe("templateParts", () => {
  it("Should read LangChain's rag-prompt when the persona sentence was replaced or dropped", () => {
    for (const opening of ["", "You are ClaimHelper for Evergreen Mutual. "]) {
      const text = `${opening}Use the following pieces of retrieved context to answer the question. If you don't know the answer, just say that you don't know.\nQuestion: How do I file a claim?\nContext: ${CONTEXT}\nAnswer:`;
      expect(templateParts(text)).toEqual({ template: "langchain:rlm/rag-prompt", context: CONTEXT, question: "How do I file a claim?" });
    }
  });

  it("Should read any prompt on the Context / Question / Answer slots, in either order", () => {
    const contextFirst = `Answer from the notes only.\n\nContext:\n${CONTEXT}\n\nQuestion: How do I file a claim?\nAnswer:`;
    expect(templateParts(contextFirst)).toMatchObject({ context: CONTEXT, question: "How do I file a claim?" });
    const questionFirst = `Query: How do I file a claim?\nDocuments: ${CONTEXT}\nAnswer: `;
    expect(templateParts(questionFirst)).toMatchObject({ context: CONTEXT, question: "How do I file a claim?" });
  });

  it("Should keep an FAQ's own Question lines inside the context", () => {
    const faq = "Question: Can I claim for mould?\nOnly when it follows a sudden leak.";
    const text = `Context:\n${faq}\n\nQuestion: Is mould covered?\nAnswer:`;
    expect(templateParts(text)).toMatchObject({ context: faq, question: "Is mould covered?" });
  });

  it("Should leave ordinary messages alone", () => {
    expect(templateParts("Question: what does 'context' mean in React?\nI keep reading about Context: the API.")).toBeNull();
    expect(templateParts("Write a quiz. Each item has a Question: line and an Answer: line.")).toBeNull();
  });
});
