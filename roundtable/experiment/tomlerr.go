package experiment

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// TOMLError words an error of go-toml's strict decoding for whoever edits
// the file: each unknown key with its line, or the key, line and column of
// a bad value with the TOML type found and the one the key takes (no Go
// names). The config and study files are read this way.
func TOMLError(err error) string {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var keys []string
		for _, e := range strict.Errors {
			row, _ := e.Position()
			keys = append(keys, fmt.Sprintf("unknown key %q (line %d)", strings.Join(e.Key(), "."), row))
		}
		return strings.Join(keys, "; ")
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		if key := de.Key(); len(key) > 0 {
			return fmt.Sprintf("%s (line %d, column %d): %s", strings.Join(key, "."), row, col, plainTOMLError(de.Error()))
		}
		return fmt.Sprintf("line %d, column %d: %s", row, col, de.Error())
	}
	return err.Error()
}

// tomlValueError words a decoding error of values merged from several
// places of a file, whose lines the caller knows: the key and what is
// wrong, with no position.
func tomlValueError(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) && len(de.Key()) > 0 {
		return fmt.Sprintf("%s: %s", strings.Join(de.Key(), "."), plainTOMLError(de.Error()))
	}
	return TOMLError(err)
}

// typeMismatch matches the library's wording of a value of the wrong type,
// which names a Go struct field instead of the key.
var typeMismatch = regexp.MustCompile(`^toml: cannot decode TOML (\w+) into struct field \S+ of type (\S+)$`)

// plainTOMLError words a decoding error for whoever edits the file: the
// TOML type found and the one the key takes, no Go names.
func plainTOMLError(msg string) string {
	m := typeMismatch.FindStringSubmatch(msg)
	if m == nil {
		return strings.TrimPrefix(msg, "toml: ")
	}
	return fmt.Sprintf("expected %s, found a %s", tomlTypeName(m[2]), m[1])
}

func tomlTypeName(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array of " + strings.TrimPrefix(tomlTypeName(strings.TrimPrefix(goType, "[]")), "a ") + "s"
	case strings.HasPrefix(goType, "*"):
		return tomlTypeName(strings.TrimPrefix(goType, "*"))
	case strings.HasPrefix(goType, "int") || strings.HasPrefix(goType, "uint"):
		return "an integer"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	case goType == "bool":
		return "a boolean (true or false)"
	case goType == "string":
		return "a string"
	case strings.HasPrefix(goType, "map["):
		return "a table"
	case strings.HasSuffix(goType, ".Duration"):
		return `a duration such as "30s" or "2m"`
	case strings.Contains(goType, "."):
		return "a table"
	}
	return goType
}
