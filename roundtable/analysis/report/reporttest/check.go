// Package reporttest checks what report.Write wrote: tests of the
// package and of the command share it.
package reporttest

import (
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// CheckFiles decodes every PNG, parses every SVG as XML and every CSV
// (at least a header and a row), and fails t for any that does not; it
// also wants at least one CSV and a PNG beside every SVG. It returns the
// number of files per extension.
func CheckFiles(t testing.TB, files []string) map[string]int {
	t.Helper()
	kinds := map[string]int{}
	for _, f := range files {
		ext := filepath.Ext(f)
		kinds[ext]++
		if err := check(f, ext); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if kinds[".csv"] == 0 || kinds[".png"] != kinds[".svg"] {
		t.Errorf("files by kind: %v", kinds)
	}
	return kinds
}

func check(path, ext string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	switch ext {
	case ".png":
		img, err := png.Decode(fh)
		if err == nil && img.Bounds().Dx() < 1600 {
			err = fmt.Errorf("image %d pixels wide, narrower than 1600", img.Bounds().Dx())
		}
		return err
	case ".svg":
		d := xml.NewDecoder(fh)
		for {
			if _, err := d.Token(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	case ".csv":
		rows, err := csv.NewReader(fh).ReadAll()
		if err == nil && len(rows) < 2 {
			err = errors.New("no rows under the header")
		}
		return err
	}
	return nil
}
