// Package web is roundtable's built-in chat channel: a small web server,
// embedded in the roundtable binary, where people create live tables, join
// them with a link and deliberate in the browser, with no accounts or
// tokens to set up. It implements bot.Platform (and bot.Uploader) so the
// bot service drives its tables like any other platform's.
//
// The lobby ("/") creates tables; each table lives in a room
// ("/r/<room>") that people enter through its join link, which carries an
// HMAC of the room under Config.Secret and so survives restarts. The
// browser gets what the bot posts, and what it says to that user alone,
// over Server-Sent Events; users' acts come back as JSON POSTs and become
// bot.Events. The room's panel, its feed and a dashboard per table read
// the table through the bot service (bot.Tables), as their viewer may see
// it; the web channel never opens the store.
//
// Security: the server binds to 127.0.0.1 by default; every state-changing
// request and the live stream must come from the same origin; cookies are
// HttpOnly and SameSite=Strict; request bodies are bounded; pages carry a
// Content-Security-Policy without inline script; everything users write is
// escaped before it reaches a page.
package web
