package roundtable

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
)

// KeySet is the set of action keys a table has recorded (Event.Key), by
// which a redelivered action is known as a duplicate. It keeps each key
// as its 64-bit FNV-1a hash, in ascending order: 8 bytes a key rather than
// the key and a map entry, so that a long table's keys cost little in
// memory and in every snapshot. Two keys of one table sharing a hash is
// about as likely as 1 in 10^11 for a table of 10,000 keyed actions; the
// second would be taken for a duplicate.
//
// It encodes as one base64 string of the big-endian hashes.
type KeySet []uint64

func keyHash(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// Has reports whether key was recorded.
func (k KeySet) Has(key string) bool {
	_, ok := slices.BinarySearch(k, keyHash(key))
	return ok
}

// Add records key.
func (k *KeySet) Add(key string) {
	h := keyHash(key)
	if i, ok := slices.BinarySearch(*k, h); !ok {
		*k = slices.Insert(*k, i, h)
	}
}

// Len is how many keys were recorded.
func (k KeySet) Len() int { return len(k) }

// MarshalJSON implements json.Marshaler.
func (k KeySet) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 8*len(k))
	for _, h := range k {
		b = binary.BigEndian.AppendUint64(b, h)
	}
	return json.Marshal(base64.StdEncoding.EncodeToString(b))
}

// UnmarshalJSON implements json.Unmarshaler.
func (k *KeySet) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("key set: %w", err)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%8 != 0 {
		return fmt.Errorf("key set: not base64 of 8-byte hashes")
	}
	out := make(KeySet, len(b)/8)
	for i := range out {
		out[i] = binary.BigEndian.Uint64(b[8*i:])
	}
	if !slices.IsSorted(out) {
		return fmt.Errorf("key set: hashes out of order")
	}
	*k = out
	return nil
}
