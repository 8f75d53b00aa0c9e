// Package dyads is the dyadic protocol of Opinion dynamics: each step a
// sampled pair i -> j, i writes to j and j reports its belief about a
// claim on -2..2; the controls drop the interaction. It holds the
// schedule, the built-in claims, the conditions recorded in a table's
// parameters, and the model-free agents that update by DeGroot or
// Deffuant.
package dyads
