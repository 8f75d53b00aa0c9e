package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLongUnbrokenNamesFitAPhone: a 64-letter name and a title of
// one long word (pasted links, e-mail addresses) wrap or are cut with an
// ellipsis; no page grows wider than the window.
func TestBrowserLongUnbrokenNamesFitAPhone(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	e.inViewport(t, func(t *testing.T, tab context.Context) {
		w := eval[int](t, tab, `window.innerWidth`)
		do(t, tab, "create a table with a long name and title",
			chromedp.Navigate(e.p.HostURL()),
			chromedp.WaitVisible(chromedp.CSS(`#topic`)),
			chromedp.SetValue(chromedp.CSS(`#name`), strings.Repeat("W", 64)),
			chromedp.SetValue(chromedp.CSS(`#topic`), strings.Repeat("Antidisestablishmentarianism", 3)+"?"),
			chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
			chromedp.WaitVisible(chromedp.CSS(`#posts .post`)))
		room := eval[string](t, tab, `location.pathname`)
		for _, page := range []string{room, room + "/dashboard", "/"} {
			do(t, tab, "open "+page, chromedp.Navigate(e.p.URL()+strings.TrimPrefix(page, "/")), chromedp.WaitVisible(chromedp.CSS(`main`)))
			if sw := eval[int](t, tab, `document.documentElement.scrollWidth`); sw > w {
				t.Errorf("%s is %d px wide in a %d px window: %s", page, sw, w, eval[string](t, tab, `[...document.querySelectorAll('body, body *')].filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible').slice(0, 6).map(e => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '/' + e.clientWidth + ': ' + e.textContent.slice(0, 20)).join(' | ')`))
			}
		}
	})
}
