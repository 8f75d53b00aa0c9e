package roundtable_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// sampleLog plays a PlayTable table of the given rounds and returns its
// log; stop ends it with Stop after its first message instead.
func sampleLog(t testing.TB, rounds int, mode roundtable.Mode, stop bool) []roundtable.Event {
	t.Helper()
	ctx := context.Background()
	st, clock := roundtabletest.NewMemStore(), roundtabletest.NewClock(t0)
	if stop {
		cfg := roundtabletest.SampleConfig(rounds)
		cfg.Mode = mode
		tb, err := roundtable.Create(ctx, st, clock, roundtabletest.SampleTask(), "stopped", cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if err := tb.Do(ctx, roundtable.Say{Actor: "alice", Text: "hello"}); err != nil {
			t.Fatal(err)
		}
		if err := tb.Stop(ctx, "starter", roundtable.EndStopped); err != nil {
			t.Fatal(err)
		}
		evs, _ := st.Load(ctx, "stopped")
		return evs
	}
	tb, err := roundtabletest.PlayTable(ctx, st, clock, "played", rounds)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := st.Load(ctx, tb.ID())
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func jsonl(t testing.TB, evs []roundtable.Event) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, e := range evs {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// decodeLog reads JSON lines as the store keeps events.
func decodeLog(data []byte) ([]roundtable.Event, error) {
	var evs []roundtable.Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e roundtable.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, err
		}
		evs = append(evs, e)
	}
	return evs, sc.Err()
}

// damage replaces line n (0-based) of a JSONL log.
func damage(log []byte, n int, line string) []byte {
	lines := strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")
	lines[n] = line
	return []byte(strings.Join(lines, "\n") + "\n")
}

func TestReplayRefusesDamagedLogs(t *testing.T) {
	good := jsonl(t, sampleLog(t, 1, "", false))
	cases := []struct {
		name, log string
		seq       uint64
		want      string
	}{
		{"decision without a table", `{"seq":1,"type":"decision_made","data":{}}`, 1, "begin with table_created"},
		{"decision of round 0", string(damage(good, 2, `{"table":"played","seq":3,"type":"decision_made","data":{"round":0}}`)), 3, "decision of round 0"},
		{"message of round 9", string(damage(good, 4, `{"table":"played","seq":5,"type":"message_posted","actor":"alice","data":{"round":9,"text":"x"}}`)), 5, "round 9 message phase is not the open one"},
		{"phase beyond the rounds", string(damage(good, 3, `{"table":"played","seq":4,"type":"phase_opened","data":{"round":1000000,"phase":"message"}}`)), 4, "out of range 1..1"},
		{"actor not seated", string(damage(good, 4, `{"table":"played","seq":5,"type":"message_posted","actor":"mallory","data":{"round":1,"text":"x"}}`)), 5, `actor "mallory" is not seated`},
		{"recipient not seated", string(damage(good, 4, `{"table":"played","seq":5,"type":"message_posted","actor":"alice","data":{"round":1,"to":["ghost"],"text":"x"}}`)), 5, `recipient "ghost"`},
		{"gap in sequence", string(damage(good, 4, `{"table":"played","seq":9,"type":"participant_left","actor":"bob","data":{"id":"bob"}}`)), 9, "out of order"},
		{"other table", string(damage(good, 4, `{"table":"other","seq":5,"type":"participant_left","actor":"bob","data":{"id":"bob"}}`)), 5, `belongs to table "other"`},
		{"second table_created", string(damage(good, 1, `{"table":"played","seq":2,"type":"table_created","data":{"config":{"rule":"plurality","rounds":1}}}`)), 2, "after the log's first event"},
		{"message after its phase closed", string(damage(good, 8, `{"table":"played","seq":9,"type":"message_posted","actor":"alice","data":{"round":1,"text":"late"}}`)), 9, "message phase has closed"},
		{"phase closed twice", string(damage(good, 8, `{"table":"played","seq":9,"type":"phase_closed","data":{"round":1,"phase":"message"}}`)), 9, "message phase has closed"},
		{"bad config", `{"table":"x","seq":1,"type":"table_created","data":{"config":{"rule":"dice","rounds":1}}}`, 1, "config: rule"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decodeLog([]byte(c.log + "\n"))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			_, err = roundtable.Replay(evs)
			var le *roundtable.LogError
			if !errors.As(err, &le) {
				t.Fatalf("Replay = %v, want a *LogError", err)
			}
			if le.Seq != c.seq || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "event ") {
				t.Errorf("Replay error = %q (seq %d), want seq %d and %q", err, le.Seq, c.seq, c.want)
			}
		})
	}
}

func TestReplayAcceptsRealLogs(t *testing.T) {
	for _, evs := range [][]roundtable.Event{sampleLog(t, 3, "", false), sampleLog(t, 2, roundtable.Live, true)} {
		if _, err := roundtable.Replay(evs); err != nil {
			t.Errorf("Replay of a real log: %v", err)
		}
	}
}

// FuzzReplay feeds Replay real logs and damaged variants: it must return a
// state or a *LogError, never panic; and a log that replays must replay as
// every viewer's copy (Visible) too.
func FuzzReplay(f *testing.F) {
	played := jsonl(f, sampleLog(f, 2, "", false))
	f.Add(played)
	f.Add(jsonl(f, sampleLog(f, 2, roundtable.Live, true)))
	f.Add([]byte(`{"seq":1,"type":"decision_made","data":{}}` + "\n"))
	f.Add(damage(played, 5, `{"table":"played","seq":6,"type":"decision_made","data":{"round":0}}`))
	f.Add(damage(played, 5, `{"table":"played","seq":6,"type":"ballot_cast","actor":"bob","data":{"round":1,"ballot":{"voter":"bob","ranking":["A","A"]}}}`))
	f.Add(damage(played, 3, `{"table":"played","seq":4,"type":"phase_opened","data":{"round":2,"phase":"vote","candidates":[{"id":"A"},{"id":"A"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := decodeLog(data)
		if err != nil {
			return
		}
		_ = roundtable.Visible(evs, roundtable.Viewer{Participant: "alice"}) // must not panic on any log
		s, err := roundtable.Replay(evs)
		if err != nil {
			var le *roundtable.LogError
			if !errors.As(err, &le) {
				t.Fatalf("Replay error %v is not a *LogError", err)
			}
			return
		}
		if g, want := roundtable.StageOf(evs), s.Stage(); g.Ended != want.Ended || !want.Ended && g != want {
			t.Fatalf("the log's stage %+v differs from its state's %+v", g, want)
		}
		viewers := []roundtable.Viewer{{}, {Researcher: true}}
		for _, p := range s.Participants {
			viewers = append(viewers, roundtable.Viewer{Participant: p.ID})
		}
		for _, v := range viewers {
			if _, err := roundtable.Replay(roundtable.Visible(evs, v)); err != nil {
				t.Fatalf("the log replays but its copy for %+v does not: %v", v, err)
			}
		}
	})
}
