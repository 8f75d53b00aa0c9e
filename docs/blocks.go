package docs

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Mode says how the doc test treats a block.
type Mode string

// The modes a directive gives a block; a block without one is ModeRun.
const (
	ModeRun   Mode = "run"   // run in a scratch directory; exit status 0 required
	ModeSkip  Mode = "skip"  // not run, reported as skipped with Reason
	ModeServe Mode = "serve" // run until its page answers HTTP 200, then interrupted
	ModeRepo  Mode = "repo"  // run in the repository's root
)

// Block is one fenced code block of a Markdown page.
type Block struct {
	File string // the page, as given to Parse
	Line int    // 1-based line of the opening fence
	Lang string // the fence's info string up to the first space: "sh", "toml", ""
	Text string // the block's content, with the fence's indentation removed
	Mode Mode
	// Reason is why a skipped block is not run.
	Reason string
	// Args are appended to the command of a served block ("serve with ARGS").
	Args string
}

// Where is the block's place, "README.md:42", for messages and test names.
func (b Block) Where() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

// Shell reports whether the block holds shell commands: its language is
// sh, bash, shell or console.
func (b Block) Shell() bool {
	switch b.Lang {
	case "sh", "bash", "shell", "console":
		return true
	}
	return false
}

// Script is what a shell runs for the block: its text, or for a console
// block the lines that start with "$ " (the rest is output), and the
// served block's extra arguments appended to its last line.
func (b Block) Script() string {
	text := b.Text
	if b.Lang == "console" {
		var cmds []string
		for _, l := range strings.Split(text, "\n") {
			if c, ok := strings.CutPrefix(strings.TrimSpace(l), "$ "); ok {
				cmds = append(cmds, c)
			}
		}
		text = strings.Join(cmds, "\n")
	}
	if b.Args != "" {
		text = strings.TrimRight(text, "\n") + " " + b.Args
	}
	return text
}

var (
	fenceRE     = regexp.MustCompile("^( *)(```+|~~~+)[ \t]*([^ \t`]*)")
	directiveRE = regexp.MustCompile(`^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$`)
)

// Parse returns the fenced code blocks of a Markdown page in order. A
// docs-test directive (see the package documentation) on the last
// non-blank line before a fence applies to that block. It fails, naming
// file and line, on an unclosed fence, an unknown directive, a skip
// without a reason, or a directive before a block that is not a shell
// block.
func Parse(file string, md []byte) ([]Block, error) {
	var out []Block
	var cur *Block
	var fence, indent, lastText string
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var body []string
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if cur != nil {
			if closes(line, fence) {
				cur.Text = strings.Join(body, "\n") + "\n"
				out = append(out, *cur)
				cur, body, lastText = nil, nil, ""
				continue
			}
			body = append(body, strings.TrimPrefix(line, indent))
			continue
		}
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			b := Block{File: file, Line: n, Lang: m[3], Mode: ModeRun}
			if d := directiveRE.FindStringSubmatch(lastText); d != nil {
				if err := b.direct(d[1]); err != nil {
					return nil, fmt.Errorf("%s:%d: %w", file, n, err)
				}
			}
			cur, fence, indent = &b, m[2], m[1]
			continue
		}
		if strings.TrimSpace(line) != "" {
			lastText = line
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: the code block is never closed", file, cur.Line)
	}
	return out, nil
}

// closes reports whether line ends a block opened by fence: the same
// character, at least as many times, and nothing else.
func closes(line, fence string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == ""
}

// direct applies a directive's words to the block.
func (b *Block) direct(d string) error {
	if !b.Shell() {
		return fmt.Errorf("docs-test directive %q before a %q block, which is not run", d, b.Lang)
	}
	switch {
	case strings.HasPrefix(d, "skip:"):
		b.Mode, b.Reason = ModeSkip, strings.TrimSpace(strings.TrimPrefix(d, "skip:"))
		if b.Reason == "" {
			return fmt.Errorf("docs-test: skip needs a reason (skip: REASON)")
		}
	case d == "serve":
		b.Mode = ModeServe
	case strings.HasPrefix(d, "serve with "):
		b.Mode, b.Args = ModeServe, strings.TrimSpace(strings.TrimPrefix(d, "serve with "))
	case d == "repo":
		b.Mode = ModeRepo
	default:
		return fmt.Errorf("unknown docs-test directive %q (want skip: REASON, serve, serve with ARGS or repo)", d)
	}
	return nil
}
