package discord

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// A post the bot sends again, because the answer to the first attempt was
// lost, must not show twice. Discord de-duplicates messages by nonce when
// asked to (enforce_nonce): a second create with the same nonce, by the
// same author within a few minutes, returns the first message. The nonce
// is derived from the post's key (bot.Message.Key) and part, so a retry,
// even after a restart, sends the same one. Webhook executions (agents'
// posts under their own names) take no nonce, and Discord forgets a nonce
// after a few minutes: marker.go covers both, without a mark in the text.

// maxNonce is Discord's limit on a nonce's length.
const maxNonce = 25

// nonceSend is a message create with an enforced nonce, which discordgo's
// MessageSend does not carry.
type nonceSend struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce"`
	EnforceNonce bool   `json:"enforce_nonce"`
}

// nonceFor returns the nonce of part i of the post under key ("" without
// a key).
func nonceFor(key string, i int) string {
	if key == "" {
		return ""
	}
	h := sha256.Sum256(fmt.Appendf(nil, "%s#%d", key, i))
	return hex.EncodeToString(h[:])[:maxNonce]
}

// sendWithNonce posts data in channel with an enforced nonce.
func (p *Platform) sendWithNonce(ctx context.Context, channel string, data *discordgo.MessageSend, nonce string) (string, error) {
	endpoint := discordgo.EndpointChannelMessages(channel)
	body, err := p.s.RequestWithBucketID("POST", endpoint, nonceSend{MessageSend: data, Nonce: nonce, EnforceNonce: true}, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	var m discordgo.Message
	if err := json.Unmarshal(body, &m); err != nil {
		return "", fmt.Errorf("decode the created message: %w", err)
	}
	return m.ID, nil
}
