// Package offline holds agents that need no language model, one kind per
// protocol preset, so every protocol runs headless with nothing but the
// binary: dyad agents that update by DeGroot or Deffuant, chatroom personas
// that keep their assigned stance, and panel evaluators that write from a
// phrase lexicon and read sentiment with VADER.
//
// Every agent acts only on its View (what it has said, heard and privately
// reported) and the table's seed, so a run, and a resumed run, is
// reproducible.
package offline
