package main

// The protocols a table may follow: each registers itself (package
// protocol); adding one is a package and a line here.
import (
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
)
