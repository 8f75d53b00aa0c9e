package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/store"
)

// studyPresetPrefix marks the presets of a live study's conditions: the
// lobby's create form does not offer them.
const studyPresetPrefix = "study:"

// liveStudy is a study serve runs live: the file, and its conditions as
// the web channel seats people at them.
type liveStudy struct {
	study      *experiment.Study
	conditions []web.StudyCondition
}

// openStudyFile reads the study file serve --study names, checks that
// live tables play it and that its endpoints are configured, and adds its
// conditions to bc as presets.
func openStudyFile(cfg Config, path string, bc *bot.Config) (*liveStudy, error) {
	if !cfg.webOn() {
		return nil, usagef("--study: a live study seats people through the web channel, which is off ([web] enabled)")
	}
	s, err := experiment.ReadStudy(path, "")
	if err != nil {
		return nil, usageError{err}
	}
	live, err := s.Live()
	if err != nil {
		return nil, usageError{err}
	}
	names := map[string]bool{}
	for _, ep := range cfg.LLM {
		names[ep.Name] = true
	}
	for name, where := range s.Endpoints() {
		if !names[name] {
			return nil, usagef("study %s: %s: no [[llm]] endpoint is named %q in the config", path, where, name)
		}
	}
	ls := &liveStudy{study: s}
	for i, c := range live {
		if s.Conditions[i].Agent == "llm" && len(cfg.LLM) == 0 {
			return nil, usagef("study %s: condition %q seats language models: add an [[llm]] endpoint to the config", path, c.Name)
		}
		name := studyPresetPrefix + s.Name + ":" + c.Name
		tc := c.Config
		tc.Participants = c.Bots
		bc.Presets[name] = bot.Preset{Name: name, Config: tc.WithDefaults()}
		ls.conditions = append(ls.conditions, web.StudyCondition{Name: c.Name, Preset: name, People: c.People})
	}
	return ls, nil
}

// open opens the study on the web channel; the host's dashboard measures
// its ended tables in db into dir.
func (ls *liveStudy) open(ctx context.Context, p *web.Platform, db *store.DB) (string, error) {
	dir := filepath.Join(filepath.Dir(db.Path()), ls.study.Name+"-live-analysis")
	s := ls.study
	err := p.OpenStudy(ctx, web.StudyConfig{Name: s.Name, Seed: s.Seed, Conditions: ls.conditions,
		Results: func(ctx context.Context) (web.StudyResults, error) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return web.StudyResults{}, fmt.Errorf("results: %w", err)
			}
			tab, notes, err := experiment.LiveResults(ctx, db, s, dir)
			r := web.StudyResults{Metrics: tab.Metrics, Notes: notes}
			for _, row := range tab.Rows {
				r.Rows = append(r.Rows, web.StudyResultRow{Condition: row.Condition, Cells: row.Cells})
			}
			return r, err
		}})
	return dir, err
}

// studyShelf is the studies serve --study loaded: the host opens one on
// the web channel (at once when there is one, or with /roundtable study
// start NAME in Discord and Slack).
type studyShelf struct {
	list []*liveStudy
	web  *web.Platform
	db   *store.DB
	out  func(format string, args ...any)
}

var _ bot.Studies = (*studyShelf)(nil)

// loadStudies reads every study file and adds their conditions to bc as
// presets; two studies of one name are an error.
func loadStudies(cfg Config, paths []string, bc *bot.Config) (*studyShelf, error) {
	sh := &studyShelf{}
	for _, path := range paths {
		ls, err := openStudyFile(cfg, path, bc)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(sh.list, func(o *liveStudy) bool { return o.study.Name == ls.study.Name }) {
			return nil, usagef("--study %s: another study file is named %q too", path, ls.study.Name)
		}
		sh.list = append(sh.list, ls)
	}
	return sh, nil
}

// Names implements bot.Studies.
func (sh *studyShelf) Names() []string {
	out := make([]string, len(sh.list))
	for i, ls := range sh.list {
		out[i] = ls.study.Name
	}
	return out
}

// OpenStudy implements bot.Studies: it opens the study on the web
// channel, in place of any other (whose seats stay kept).
func (sh *studyShelf) OpenStudy(ctx context.Context, name string) (bot.StudyLink, error) {
	i := slices.IndexFunc(sh.list, func(ls *liveStudy) bool { return strings.EqualFold(ls.study.Name, name) })
	if i < 0 {
		return bot.StudyLink{}, roundtable.Errorf(roundtable.NotFound, "no study is named %q here (studies: %s)", name, strings.Join(sh.Names(), ", "))
	}
	dir, err := sh.list[i].open(ctx, sh.web, sh.db)
	if err != nil {
		return bot.StudyLink{}, err
	}
	sh.out("roundtable: study %s is open live; the dashboard measures ended tables into %s\n", sh.list[i].study.Name, dir)
	link, code := sh.web.CohortURL()
	return bot.StudyLink{Name: sh.list[i].study.Name, Link: link, Code: code, CodeAt: sh.web.PublicURL() + "c"}, nil
}

// isStudyPreset reports whether a preset is a live study's condition.
func isStudyPreset(name string) bool { return strings.HasPrefix(name, studyPresetPrefix) }
