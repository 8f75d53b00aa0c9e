package store

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// The encodings of events, snapshots and annotations, shared with the
// etcd backend (package etcdstore), which keeps the same values under
// other keys: a value reads the same whichever backend wrote it, and the
// backends' tests share their damaged-value cases.

// EncodeEvents checks that events belong to table and are consecutive
// (an *roundtable.Error with code Invalid or Conflict when not), and
// encodes them as stored.
func EncodeEvents(table string, events []roundtable.Event) ([][]byte, error) {
	return encodeEvents(table, events)
}

// DecodeEvents decodes table's events as stored.
func DecodeEvents(table string, raw [][]byte) ([]roundtable.Event, error) {
	return decodeEvents(table, raw)
}

// CheckSnapshot refuses a snapshot that is not table's state after the
// last of events, as AppendSnapshot must.
func CheckSnapshot(table string, events []roundtable.Event, snap *roundtable.State) error {
	if snap == nil {
		return roundtable.Errorf(roundtable.Invalid, "table %s: no snapshot to append", table)
	}
	if n := len(events); n == 0 || snap.Seq != events[n-1].Seq || snap.ID != table {
		return roundtable.Errorf(roundtable.Invalid, "table %s: the snapshot (table %q, seq %d) is not the state after the appended events", table, snap.ID, snap.Seq)
	}
	return nil
}

// SnapshotHead is a stored snapshot's head: the table's state without its
// ended rounds, which are stored one by one apart from it.
type SnapshotHead struct {
	snap storedSnapshot
}

// SnapshotHeadLen is the length of a head's fixed part: Seq, the number of
// ended rounds and the CRC-32 of the event at Seq. The state JSON follows.
const SnapshotHeadLen = 20

// EncodeSnapshotHead encodes s, the state after the event encoded as last,
// as a snapshot head without its first done rounds.
func EncodeSnapshotHead(s *roundtable.State, done int, last []byte) ([]byte, error) {
	return encodeHead(s, done, crc32.ChecksumIEEE(last))
}

// EncodeRounds encodes rounds to store them one by one beside a head.
func EncodeRounds(rs []roundtable.RoundRecord) ([][]byte, error) { return encodeRounds(rs) }

// ParseSnapshotHead reads the fixed part of a stored head; the state JSON
// is decoded by State. v is kept: the caller must not change it.
func ParseSnapshotHead(table string, v []byte) (*SnapshotHead, error) {
	if len(v) < SnapshotHeadLen {
		return nil, fmt.Errorf("snapshot of table %s is truncated (%d bytes)", table, len(v))
	}
	return &SnapshotHead{snap: storedSnapshot{seq: decodeSeq(v[:8]), done: int(binary.BigEndian.Uint64(v[8:16])),
		crc: binary.BigEndian.Uint32(v[16:20]), state: v[SnapshotHeadLen:]}}, nil
}

// Seq is the sequence number of the event the snapshot was taken after.
func (h *SnapshotHead) Seq() uint64 { return h.snap.seq }

// Done is the number of ended rounds stored apart from the head.
func (h *SnapshotHead) Done() int { return h.snap.done }

// StateLen is the length of the head's state JSON; zero when the state is
// kept elsewhere (etcdstore splits a long one into parts).
func (h *SnapshotHead) StateLen() int { return len(h.snap.state) }

// Fits reports whether the snapshot was taken after event, encoded as
// stored: a snapshot of another log is never applied to this one.
func (h *SnapshotHead) Fits(event []byte) bool { return crc32.ChecksumIEEE(event) == h.snap.crc }

// State rebuilds the state from the head's JSON (state, when the head does
// not hold it) and the ended rounds archived+1..Done, encoded as stored;
// the first archived rounds are stubs (State.Archived).
func (h *SnapshotHead) State(table string, state []byte, archived int, rounds [][]byte) (*roundtable.State, error) {
	s := h.snap
	if state != nil {
		s.state = state
	}
	s.archived, s.rounds = archived, rounds
	return s.decode(table)
}

// DecodeRound decodes the stored ended round n.
func DecodeRound(b []byte, n int) (roundtable.RoundRecord, error) {
	var r roundtable.RoundRecord
	err := decodeRound(b, n, &r)
	return r, err
}

// EncodeAnnotation checks a's key and encodes a as stored.
func EncodeAnnotation(a roundtable.Annotation) ([]byte, error) { return encodeAnnotation(a) }

// AnnotationKey is the key of an annotation among its table's: the 8-byte
// big-endian Seq, the instrument, a NUL and the model, so that keys sort
// in Seq, instrument, model order.
func AnnotationKey(k roundtable.AnnotationKey) []byte { return annotationKey(k) }
