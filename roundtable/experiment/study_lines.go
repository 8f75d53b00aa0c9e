package experiment

import (
	"regexp"
	"strconv"
	"strings"
)

// lineIndex finds the lines of a study file's sections and keys, for
// errors about values that the decoder did not see on their line (those
// checked after the merge).
type lineIndex struct {
	lines   []string
	headers []header
}

// header is a section header: its line (1-based), its path
// ("condition.bot") and whether it is an array of tables.
type header struct {
	line  int
	path  string
	array bool
}

var headerLine = regexp.MustCompile(`^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?`)

func studyLines(data []byte) lineIndex {
	x := lineIndex{lines: strings.Split(string(data), "\n")}
	for i, l := range x.lines {
		if m := headerLine.FindStringSubmatch(l); m != nil {
			x.headers = append(x.headers, header{line: i + 1, path: m[2], array: m[1] == "[["})
		}
	}
	return x
}

// of is the line of key in the i-th section named section ("" the top of
// the file, "condition" the i-th [[condition]]): key may reach into a
// subtable ("bot[1].model", "durations.vote"). Without the key, it is
// the section's header line (1 for the top).
func (x lineIndex) of(section string, i int, key string) int {
	from, to := x.span(section, i)
	if from == 0 && section != "" {
		return 1
	}
	head, rest, sub := key, "", false
	if j := strings.IndexAny(key, ".["); j >= 0 {
		head, rest, sub = key[:j], key[j:], true
	}
	if sub {
		n := 0
		if strings.HasPrefix(rest, "[") {
			end := strings.Index(rest, "]")
			n, _ = strconv.Atoi(rest[1:end])
			rest = rest[end+1:]
		}
		path := strings.TrimPrefix(section+"."+head, ".")
		for _, h := range x.headers {
			if h.line > from && h.line < to && h.path == path {
				if n == 0 {
					f, t := h.line, x.next(h.line)
					if l := x.find(f, t, strings.TrimPrefix(rest, ".")); l > 0 {
						return l
					}
					return h.line
				}
				n--
			}
		}
	}
	if l := x.find(from, to, head); l > 0 {
		return l
	}
	for _, h := range x.headers { // a subtable named by the key
		if h.line > from && h.line < to && h.path == strings.TrimPrefix(section+"."+head, ".") {
			return h.line
		}
	}
	return max(from, 1)
}

// span is the lines of the i-th section named section, its subtables
// included: after from (its header), before to.
func (x lineIndex) span(section string, i int) (from, to int) {
	if section == "" {
		if len(x.headers) > 0 {
			return 0, x.headers[0].line
		}
		return 0, len(x.lines) + 1
	}
	for _, h := range x.headers {
		if h.path != section {
			continue
		}
		if i > 0 {
			i--
			continue
		}
		to = len(x.lines) + 1
		for _, n := range x.headers {
			if n.line > h.line && n.path != section && !strings.HasPrefix(n.path, section+".") {
				return h.line, n.line
			}
			if n.line > h.line && n.path == section {
				return h.line, n.line
			}
		}
		return h.line, to
	}
	return 0, 0
}

// next is the line of the header after line, or past the end.
func (x lineIndex) next(line int) int {
	for _, h := range x.headers {
		if h.line > line {
			return h.line
		}
	}
	return len(x.lines) + 1
}

// find is the first line after from and before to that sets key, in the
// table those lines open (before any subtable's header), or 0.
func (x lineIndex) find(from, to int, key string) int {
	if key == "" {
		return 0
	}
	set := regexp.MustCompile(`^\s*"?` + regexp.QuoteMeta(key) + `"?\s*=`)
	for l := from + 1; l < to && l <= len(x.lines); l++ {
		if l > from+1 && headerLine.MatchString(x.lines[l-1]) {
			return 0
		}
		if set.MatchString(x.lines[l-1]) {
			return l
		}
	}
	return 0
}
