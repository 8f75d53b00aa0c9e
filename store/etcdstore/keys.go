package etcdstore

import (
	"fmt"
	"net/url"
	"strings"
)

// keys builds the keys of the layout in the package doc.
type keys struct{ prefix string }

func (k keys) schema() string           { return k.prefix + "meta/schema" }
func (k keys) heads() string            { return k.prefix + "head/" }
func (k keys) head(table string) string { return k.heads() + esc(table) }

// log is the prefix of table's events.
func (k keys) log(table string) string { return k.prefix + "log/" + esc(table) + "/" }

func (k keys) event(table string, seq uint64) string { return k.log(table) + hex16(seq) }

func (k keys) snap(table string) string { return k.prefix + "snap/" + esc(table) }

// snapParts is the prefix of every part of table's snapshots' states.
func (k keys) snapParts(table string) string { return k.prefix + "snappart/" + esc(table) + "/" }

// snapPartsAt is the prefix of the parts of the snapshot at seq.
func (k keys) snapPartsAt(table string, seq uint64) string {
	return k.snapParts(table) + hex16(seq) + "/"
}

func (k keys) snapPart(table string, seq uint64, n int) string {
	return k.snapPartsAt(table, seq) + hex16(uint64(n))
}

// rounds is the prefix of table's stored ended rounds.
func (k keys) rounds(table string) string { return k.prefix + "round/" + esc(table) + "/" }

func (k keys) round(table string, n int) string { return k.rounds(table) + hex16(uint64(n)) }

func (k keys) pending(table string) string { return k.prefix + "pending/" + esc(table) }

// owners is the prefix of the tables' owner keys (cluster.go).
func (k keys) owners() string            { return k.prefix + "own/" }
func (k keys) owner(table string) string { return k.owners() + esc(table) }
func (k keys) member(id string) string   { return k.prefix + "member/" + esc(id) }
func (k keys) unit(name string) string   { return k.prefix + "unit/" + esc(name) }
func (k keys) pace(name string) string   { return k.prefix + "pace/" + esc(name) }

func (k keys) bindings() string          { return k.prefix + "bind/" }
func (k keys) binding(key string) string { return k.bindings() + key }

// blobRoot is the prefix of every namespace; blobs the prefix of ns.
func (k keys) blobRoot() string           { return k.prefix + "blob/" }
func (k keys) blobs(ns string) string     { return k.blobRoot() + esc(ns) + "/" }
func (k keys) blob(ns, key string) string { return k.blobs(ns) + key }

// annRoot is the prefix of every table's annotations; anns of table's.
func (k keys) annRoot() string                     { return k.prefix + "ann/" }
func (k keys) anns(table string) string            { return k.annRoot() + esc(table) + "/" }
func (k keys) ann(table string, key []byte) string { return k.anns(table) + string(key) }

// esc makes a name safe between slashes; unesc undoes it.
func esc(name string) string { return url.PathEscape(name) }

func unesc(s string) (string, error) {
	name, err := url.PathUnescape(s)
	if err != nil {
		return "", fmt.Errorf("key part %q: %w", s, err)
	}
	return name, nil
}

// hex16 writes n as 16 hex digits, so that keys sort as numbers do.
func hex16(n uint64) string { return fmt.Sprintf("%016x", n) }

// firstName is the escaped name at the start of rest (up to its first
// slash), unescaped.
func firstName(rest string) (name, escaped string, err error) {
	escaped, _, _ = strings.Cut(rest, "/")
	name, err = unesc(escaped)
	return name, escaped, err
}
