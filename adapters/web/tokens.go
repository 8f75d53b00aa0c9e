package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// Token purposes: a token for one purpose never passes for another.
const (
	purposeJoin      = "join"
	purposeOrganiser = "organiser"
	purposeHost      = "host"
	purposeUser      = "user"
)

// keys makes and checks the HMAC tokens of join links, organiser links,
// the host link and signed user IDs. They depend only on the secret, so
// links and cookies survive restarts when the caller keeps the secret.
type keys struct{ secret []byte }

// token returns the token of subject for purpose.
func (k keys) token(purpose, subject string) string {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write([]byte(subject))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// valid reports whether tok is the token of subject for purpose, in
// constant time.
func (k keys) valid(purpose, subject, tok string) bool {
	if tok == "" || subject == "" {
		return false
	}
	return hmac.Equal([]byte(tok), []byte(k.token(purpose, subject)))
}

// signUser returns the cookie value that proves a browser's user ID.
func (k keys) signUser(id string) string { return id + "." + k.token(purposeUser, id) }

// userFrom returns the user ID of a signed cookie value.
func (k keys) userFrom(v string) (string, bool) {
	id, tok, ok := strings.Cut(v, ".")
	if !ok || !validID(id) || !k.valid(purposeUser, id, tok) {
		return "", false
	}
	return id, true
}

// randomID returns n random bytes in hex.
func randomID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}

// validID reports whether s is a plausible ID made here or by the page's
// script: 1 to 64 letters, digits, '-' or '_'.
func validID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		ok := r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}
