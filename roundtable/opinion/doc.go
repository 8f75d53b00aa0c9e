// Package opinion holds the offline opinion-dynamics models of PROTOCOL.md
// section 6 (DeGroot and Deffuant updates), the opinion-dynamics metrics
// bias B and diversity D, the stance scale shared with stance auditing, and
// the panel's decisions over final sentiments (Borda, tiered, gut feeling).
// Everything here is a pure function.
package opinion
