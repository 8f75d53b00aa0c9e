package slack

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

// sentPrivately is the ephemeral note that tells the user where an
// uploaded file went.
const sentPrivately = "Sent you the export in a direct message."

// maxComment bounds a file's initial comment (a message's text limit).
const maxComment = 4000

var _ bot.Uploader = (*Platform)(nil)

// errEmptyFile is returned for a file of no bytes: Slack's upload flow
// refuses a length of 0.
var errEmptyFile = errors.New("slack: cannot upload an empty file")

// Upload implements bot.Uploader. Slack cannot post a file ephemerally, so
// the file goes to ev.User alone, in their direct message with the bot
// (conversations.open, im:write), through Slack's external upload flow
// (files:write): files.getUploadURLExternal, the bytes POSTed to the
// returned upload URL, then files.completeUploadExternal sharing the file
// in the DM with note as its comment. Then an ephemeral note where the user
// acted says where the file went.
//
// Each step is retried on its own while rate limited (a 429 at the last
// step does not upload the bytes again), and the share is paced in the
// DM's lane like any post there.
func (p *Platform) Upload(ctx context.Context, ev *bot.Event, name string, data []byte, note string) error {
	if len(data) == 0 {
		return fmt.Errorf("slack upload %s: %w", name, errEmptyFile)
	}
	dm, err := p.openDM(ctx, ev.User.ID)
	if err != nil {
		return fmt.Errorf("slack upload %s: %w", name, err)
	}
	if err := p.uploadTo(ctx, dm, name, data, note); err != nil {
		return fmt.Errorf("slack upload %s to %s's DM %s: %w", name, ev.User.ID, dm, err)
	}
	return p.Reply(ctx, ev, bot.Reply{Text: sentPrivately, Ephemeral: true})
}

// openDM opens (or finds) the direct message between the bot and user and
// returns its channel ID.
func (p *Platform) openDM(ctx context.Context, user string) (string, error) {
	var ch *slack.Channel
	err := p.pace.retry(ctx, func(ctx context.Context) (err error) {
		ch, _, _, err = p.api.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{user}, ReturnIM: true})
		return err
	})
	switch {
	case err != nil:
		return "", fmt.Errorf("conversations.open with %s: %w", user, err)
	case ch == nil || ch.ID == "":
		return "", fmt.Errorf("conversations.open with %s: no channel in the answer", user)
	}
	return ch.ID, nil
}

// uploadTo runs the external upload flow into channel, holding its lane so
// that the file keeps its place among the channel's posts.
func (p *Platform) uploadTo(ctx context.Context, channel, name string, data []byte, note string) error {
	lane, err := p.pace.acquire(ctx, channel)
	if err != nil {
		return err
	}
	defer lane.release()
	var target *slack.GetUploadURLExternalResponse
	err = p.pace.retry(ctx, func(ctx context.Context) (err error) {
		target, err = p.api.GetUploadURLExternalContext(ctx, slack.GetUploadURLExternalParameters{FileName: name, FileSize: len(data)})
		return err
	})
	if err != nil {
		return fmt.Errorf("files.getUploadURLExternal: %w", err)
	}
	err = p.pace.retry(ctx, func(ctx context.Context) error {
		return p.api.UploadToURL(ctx, slack.UploadToURLParameters{UploadURL: target.UploadURL, Filename: name,
			Reader: bytes.NewReader(data)})
	})
	if err != nil {
		return fmt.Errorf("upload the bytes: %w", err)
	}
	params := slack.CompleteUploadExternalParameters{Files: []slack.FileSummary{{ID: target.FileID, Title: name}},
		Channel: channel, InitialComment: clip(mrkdwn(note), maxComment)}
	var done *slack.CompleteUploadExternalResponse
	err = lane.send(ctx, func(ctx context.Context) (err error) {
		done, err = p.api.CompleteUploadExternalContext(ctx, params)
		return err
	})
	switch {
	case err != nil:
		return fmt.Errorf("files.completeUploadExternal: %w", err)
	case len(done.Files) != 1:
		return fmt.Errorf("files.completeUploadExternal: %d files shared, want 1", len(done.Files))
	}
	return nil
}
