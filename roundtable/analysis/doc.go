// Package analysis measures what was said at a table. Its sub-packages are
// the instruments, each an interface over text with an offline default
// and, where a model is involved, a single-model and a negotiated
// implementation (see package label):
//
//   - readability: words, sentences, syllables, Flesch-Kincaid grade;
//   - sentiment: VADER per argument, opinion sentiment and its update;
//   - stance: opinion presence and five-level opinion signal;
//   - acts: dialogue acts (an LLM, or offline a cue-phrase tagger);
//   - embed: embeddings (any /v1/embeddings endpoint, or offline a hashed
//     TF-IDF vector) and the information difference between rounds.
//
// This package makes an instrument by name and method (New), stores what
// an instrument says about a message as a roundtable.Annotation beside the
// table's log (Cache), so that an analysis run twice asks no model twice,
// and measures JSON Lines of texts or stored tables' messages
// (AnnotateLines, AnnotateTables; `roundtable annotate`).
package analysis
