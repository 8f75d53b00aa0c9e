// Package opinion holds the offline opinion-dynamics models of
// docs/protocol.md#opinion-dynamics-dyads (DeGroot and Deffuant updates, confirmation bias), the
// opinion-dynamics metrics bias B and diversity D, and the stance scale and
// persona shared by the chatroom, the dyads and stance auditing.
// Everything here is a pure function.
package opinion
