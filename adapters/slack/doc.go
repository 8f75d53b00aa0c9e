// Package slack is the bot.Platform for Slack, built on
// github.com/slack-go/slack.
//
// It runs in one of two transports, both feeding the same normalisation
// (convert.go): Socket Mode (the default: a WebSocket the app opens, so no
// public URL is needed; right for self-hosting and classrooms) or the HTTP
// Events API (Config.Mode "http": Slack posts events, slash commands and
// interactions to an endpoint whose request signatures are verified with
// the signing secret). deploy/slack-manifest.yaml creates a matching app.
//
// Channel IDs. A Slack thread is a channel plus the timestamp of its root
// message, so the adapter writes a thread's channel ID as
// "<channel>/<thread_ts>" ("C0123/1700000000.000100"). A posted message's ID
// has the same form, "<channel>/<ts>"; chat.update needs nothing more.
//
// Commands. Slack does not run slash commands inside threads, so
// "/roundtable vote A" is typed in the channel. A command other than start
// and help, without a table: option, is routed to the channel's newest
// table thread: the one this process started last, or after a restart the
// newest root message carrying roundtable's message metadata among the
// channel's latest 15 (conversations.history). The text "/roundtable <sub> key:value ..."
// becomes Command and Options; values may be quoted (topic:"Where now?"),
// and the bare rest is the main option (start: topic, propose: text, vote:
// ballot, other commands: table).
//
// Modals. Every payload is acknowledged on receipt but a submitted modal
// (view_submission): its acknowledgement waits for the bot's answer, so
// that a refusal (bot.Reply.Fields) shows its errors under the modal's
// inputs and keeps it open (response_action "errors"; in HTTP mode the
// response body). Any other answer closes the modal with a plain ack, then
// is shown as usual. Slack waits 3 s: after Config.AckDeadline (2.5 s) the
// modal is acknowledged plainly, and a later refusal is posted as an
// ephemeral message.
//
// People. User.Manager is the workspace's is_admin or is_owner flag from
// users.info (cached for a few minutes): Slack has no per-channel manage
// right an app can read. Messages with a bot_id, the bot_message subtype or
// the bot's own user are marked User.Bot and ignored by the service.
//
// Limits. Posts are paced per Slack channel (one message per second by
// default, threads share their channel's budget) and a 429 is waited out
// for its Retry-After, in order, never dropped. Long texts become several
// sections of at most 3000 characters and, past 40,000 characters, several
// messages; option texts are cut to 75 characters, selects to 100 options,
// actions blocks to 25 elements, modal titles to 24 characters. History
// is read (conversations.history, conversations.replies) only to find a
// post whose outcome is unknown and, after a restart, a channel's table
// thread, 15 messages a page, at most one read per Config.HistoryInterval
// for the whole workspace (a minute by default: Slack's limit, since May
// 2025, for apps not approved for its Marketplace), never holding a post
// (dedupe.go).
//
// Files. Slack cannot post a file ephemerally, so Upload (the bot's
// export) sends it to the requester alone, in their direct message with
// the bot (conversations.open, then files.getUploadURLExternal, the bytes
// POSTed to the upload URL, files.completeUploadExternal; scopes im:write
// and files:write), and tells them so in an ephemeral note.
//
// Tokens are never logged: Config prints and logs them redacted, and slack-go
// runs without debug output.
package slack
