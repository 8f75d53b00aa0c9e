// Package sentiment measures the sentiment of statements as the
// Sentimental Agents paper does (docs/protocol.md#sentiment-and-opinion-updating-panel): a statement is split into arguments (its sentences, further
// split at contrastive conjunctions: "but", "however", "although",
// "though", "even though", "whereas", and "yet" and "while" where they
// contrast; "Although X, Y" at its clause comma), each argument
// is scored in [-1, 1], and the opinion sentiment S_O is their mean. An
// agent's sentiment then moves by the non-Bayesian update
//
//	S_i(t) = alpha * S_O + (1 - alpha) * S_i(t-1),  dS_i(t) = |S_i(t) - S_i(t-1)|
//
// and a conversation stops when every dS_i is below a tolerance.
//
// The offline Scorer is VADER (Vader) through github.com/jonreiter/govader,
// a port of the reference Python implementation (cjhutto/vaderSentiment).
// It agrees with the reference's published README examples to within
// 0.01 on the compound score; TestVaderMatchesReferenceREADME names the
// source and the one share where the port differs. A model can score
// instead (LLM), with the same output.
package sentiment
