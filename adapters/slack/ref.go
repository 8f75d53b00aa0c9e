package slack

import "strings"

// ref is a place in Slack: a channel, or a thread or message in it (the
// channel and a message timestamp). It is written "<channel>/<ts>", the
// form of the thread channel IDs and message IDs the bot sees.
type ref struct {
	Channel string
	TS      string
}

func parseRef(s string) ref {
	c, ts, _ := strings.Cut(s, "/")
	return ref{Channel: c, TS: ts}
}

func (r ref) String() string {
	if r.TS == "" {
		return r.Channel
	}
	return r.Channel + "/" + r.TS
}
