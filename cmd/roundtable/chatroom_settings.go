package main

import (
	"github.com/spf13/pflag"
)

// ChatroomSettings are the persona and memory settings of Conversational
// bias's language-model chatroom agents (sim --agent llm).
type ChatroomSettings struct {
	// Complement is the statement's complement: personas below neutral
	// agree with it rather than disagree with the statement. "" derives
	// "It is not the case that ...".
	Complement string `toml:"complement"`
	// ContextChars is each model agent's context window for the chat: the
	// recent messages that fit in this many characters, oldest dropped
	// first (0: agent.DefaultContextChars).
	ContextChars int `toml:"context_chars"`
}

func (c *ChatroomSettings) register(fl *pflag.FlagSet) {
	fl.StringVar(&c.Complement, "complement", "", "chatroom: the statement's complement, which personas below neutral agree with (default \"It is not the case that ...\")")
	fl.IntVar(&c.ContextChars, "context-chars", 0, "chatroom: a model agent's memory, the recent messages that fit in this many characters (default 16000)")
}

func (c *ChatroomSettings) fill(changed func(string) bool, cfg ChatroomSettings) {
	pick(changed, "complement", &c.Complement, cfg.Complement)
	pick(changed, "context-chars", &c.ContextChars, cfg.ContextChars)
}

// liveCheck refuses, in a [[table]] preset, what belongs to the agents:
// a live table's model agents take persona and memory from their
// [[agent]] preset.
func (c ChatroomSettings) liveCheck(key string) error {
	if c.ContextChars != 0 {
		return usagef("%s.context_chars: a live table's agents keep the memory of their [[agent]] preset (context_chars there)", key)
	}
	if c.Complement != "" {
		return usagef("%s.complement: a live table's agents take their persona from their [[agent]] preset; write the complement into its stance or background", key)
	}
	return nil
}
