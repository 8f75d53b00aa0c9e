// Package export writes table logs for analysis tools: JSON Lines (one event
// per line, as the store keeps it) and CSV (one row per event, with a short
// readable summary). Both can pseudonymise the humans at the table.
//
// Live and headless tables produce the same events, so an export reads the
// same whichever way the table ran.
package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Format is an export file format.
type Format string

// The formats.
const (
	JSONL Format = "jsonl" // one Event JSON per line (Event.MarshalJSON)
	CSV   Format = "csv"   // one row per event; see WriteCSV
)

// ParseFormat returns the format named s ("jsonl" or "csv").
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case JSONL, CSV:
		return f, nil
	}
	return "", fmt.Errorf("unknown export format %q (want jsonl or csv)", s)
}

// Options tune an export.
type Options struct {
	// Pseudonymize replaces the humans' IDs and names (see Pseudonymize).
	Pseudonymize bool
	// Viewer is who the export is for. Every export shows each table as
	// its viewer may see it at its last event (roundtable.Visible): the
	// zero Viewer, someone not at the table, gets what has been revealed
	// and no private reasoning; a researcher gets everything of an ended
	// table.
	Viewer roundtable.Viewer
}

// Write writes events to w in format f.
func Write(w io.Writer, f Format, events []roundtable.Event, opt Options) error {
	switch f {
	case JSONL:
		return WriteJSONL(w, events, opt)
	case CSV:
		return WriteCSV(w, events, opt)
	}
	return fmt.Errorf("unknown export format %q", f)
}

// WriteJSONL writes one event per line in the log's own JSON encoding, so
// the output can be decoded with roundtable.Event's UnmarshalJSON.
func WriteJSONL(w io.Writer, events []roundtable.Event, opt Options) error {
	events = prepare(events, opt)
	bw := bufio.NewWriter(w)
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("export event %d of table %s: %w", e.Seq, e.Table, err)
		}
		bw.Write(b) // a bufio.Writer keeps its first error for Flush
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write jsonl: %w", err)
	}
	return nil
}

func prepare(events []roundtable.Event, opt Options) []roundtable.Event {
	events = visible(events, opt.Viewer)
	if opt.Pseudonymize {
		events = Pseudonymize(events)
	}
	return secret(events, opt)
}

// visible applies roundtable.Visible to each table's run of events.
func visible(events []roundtable.Event, v roundtable.Viewer) []roundtable.Event {
	out := make([]roundtable.Event, 0, len(events))
	for _, run := range tableRuns(events) {
		out = append(out, roundtable.Visible(run, v)...)
	}
	return out
}

// tableRuns splits events into runs of consecutive events of one table
// (subslices of events, not copies).
func tableRuns(events []roundtable.Event) [][]roundtable.Event {
	var out [][]roundtable.Event
	for start := 0; start < len(events); {
		end := start + 1
		for end < len(events) && events[end].Table == events[start].Table {
			end++
		}
		out = append(out, events[start:end])
		start = end
	}
	return out
}
