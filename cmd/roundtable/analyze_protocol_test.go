package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The three protocols' runs in one directory give their papers' tables
// and figures through analyze.
func TestAnalyzeProtocolRuns(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--protocol", "dyads", "--agents", "5", "--rounds", "30"},
		{"--protocol", "dyads", "--agent", "deffuant", "--stances", "continuous", "--agents", "5", "--rounds", "30"},
		{"--protocol", "chatroom", "--stances", "echo:-2", "--agents", "4", "--rounds", "6"},
		{"--protocol", "panel", "--items", "Ann,Ben", "--tolerance", "0.001", "--agents", "3", "--rounds", "20"},
	} {
		if code, _, errOut := run(t, "", append([]string{"sim", "--question", "q", "--runs", "2", "--out", dir}, args...)...); code != 0 {
			t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
		}
	}
	if code, _, errOut := run(t, "", "analyze", dir); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	out := filepath.Join(dir, "analysis")
	for _, f := range []string{"dyads_trajectories.png", "dyads_trajectories.svg", "panel_sentiment_Ann.svg", "chatroom_changes.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("analyze wrote no %s: %v", f, err)
		}
	}
	rows := readCSV(t, filepath.Join(out, "dyads_bias_diversity.csv"))
	if len(rows) != 3 || rows[0][2] != "B_final" {
		t.Fatalf("dyads table: %v", rows)
	}
	for _, r := range rows[1:] {
		d, _ := strconv.ParseFloat(r[4], 64)
		d0, _ := strconv.ParseFloat(r[12], 64)
		if r[1] != "2" || !(d < d0) {
			t.Errorf("condition %s: %s tables, D %v from %v: want 2 tables and D falling", r[0], r[1], d, d0)
		}
	}
	if rows := readCSV(t, filepath.Join(out, "chatroom_changes.csv")); len(rows) != 2 || rows[1][2] != "0.0000" {
		t.Errorf("chatroom table: %v", rows)
	}
}
