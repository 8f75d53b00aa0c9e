package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Studies open the studies a server runs live (serve --study): people
// join one through its cohort link, on the web channel.
type Studies interface {
	// Names are the studies that may be opened.
	Names() []string
	// OpenStudy opens the study named name and returns its cohort link
	// and short code, and where the code is typed.
	OpenStudy(ctx context.Context, name string) (StudyLink, error)
}

// StudyLink is how a class joins an open study.
type StudyLink struct {
	Name, Link, Code, CodeAt string
}

// study runs "/roundtable study start NAME": for whoever may start
// tables, it opens the study and posts its cohort link and code in the
// channel, for everyone there.
func (s *Service) study(ctx context.Context, ev *Event) (*Reply, error) {
	if !s.cfg.policy(ev.Platform).Allows(ev.User) {
		return nil, roundtable.Errorf(roundtable.Forbidden, "you may not start studies here (ask someone who may manage this channel)")
	}
	action, name := studyArgs(ev.Options)
	if s.deps.Studies == nil || len(s.deps.Studies.Names()) == 0 {
		return nil, roundtable.Errorf(roundtable.NotFound, "this server runs no study live (start it with `roundtable serve --study FILE`)")
	}
	names := s.deps.Studies.Names()
	switch {
	case action != "start":
		return nil, roundtable.Errorf(roundtable.Invalid, "study: say /roundtable study start <name> (studies: %s)", strings.Join(names, ", "))
	case name == "":
		return nil, roundtable.Errorf(roundtable.Invalid, "study start: which study? (%s)", strings.Join(names, ", "))
	}
	l, err := s.deps.Studies.OpenStudy(ctx, name)
	if err != nil {
		return nil, err
	}
	return &Reply{Text: fmt.Sprintf("**Study %s is open.** Everyone: open %s (or type the code **%s** at %s) to be seated at a table; "+
		"your table starts when its group is complete or the host starts it.", l.Name, l.Link, l.Code, l.CodeAt)}, nil
}

// studyArgs reads the study command's action and study name: as options
// (action:start name:NAME), or as words ("start NAME", which Slack's
// command text gives).
func studyArgs(opts map[string]string) (action, name string) {
	action, name = strings.ToLower(strings.TrimSpace(opts["action"])), strings.TrimSpace(opts["name"])
	if action == "" {
		words := strings.Fields(name)
		if len(words) > 0 {
			action, name = strings.ToLower(words[0]), strings.Join(words[1:], " ")
		}
	}
	return action, name
}
