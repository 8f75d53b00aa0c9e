// Package panel is the evaluation panel of Sentimental Agents
// (docs/protocol.md#sentiment-and-opinion-updating-panel): every round each judge states an opinion of the
// items, then privately reports a sentiment in -1..1 per item, smoothed by
// alpha; the panel stops when no sentiment moves by the tolerance. Beside
// the schedule it holds the model-free judge (Evaluator), the offline
// generator of a judge's mental model of self, the quality metrics of a
// panel run (nuance, drift, defensibility, platitude) and the
// cognitive-bias points and slopes of its sentiment updates.
//
// Everything here is deterministic and needs no model: texts are split
// into arguments as the sentiment instrument splits them and compared as
// hashed TF-IDF vectors (package embed), named as such wherever a figure
// depends on them.
package panel
