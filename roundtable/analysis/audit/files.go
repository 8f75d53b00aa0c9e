package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

func sortSeqs(s []uint64) { slices.Sort(s) }

// WriteReports writes the audit reports of tables into dir and returns
// the files written: audit_summary.csv, audit_trajectories.csv,
// audit_changes.csv, audit_matrix.csv, audit_slopes.csv and, per table, its sentiment and
// stance trajectories as PNG and SVG.
func WriteReports(dir string, tables []*Table) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("audit reports: %w", err)
	}
	var files []string
	put := func(name string, b []byte) error {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("audit reports: %w", err)
		}
		files = append(files, p)
		return nil
	}
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"audit_summary.csv", func(b *bytes.Buffer) error { return WriteSummaryCSV(b, Summarize(tables)) }},
		{"audit_trajectories.csv", func(b *bytes.Buffer) error { return WriteTrajectoriesCSV(b, tables) }},
		{"audit_changes.csv", func(b *bytes.Buffer) error { return WriteChangesCSV(b, tables) }},
		{"audit_matrix.csv", func(b *bytes.Buffer) error { return WriteMatrixCSV(b, tables) }},
		{"audit_slopes.csv", func(b *bytes.Buffer) error { return WriteSlopesCSV(b, tables) }},
	} {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			return files, err
		}
		if err := put(f.name, b.Bytes()); err != nil {
			return files, err
		}
	}
	for _, t := range tables {
		written, err := writeFigures(dir, t)
		files = append(files, written...)
		if err != nil {
			return files, err
		}
	}
	return files, nil
}
