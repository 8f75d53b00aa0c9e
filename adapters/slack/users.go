package slack

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// userTTL bounds how stale a cached users.info answer may be (a promotion
// to admin shows within it).
const userTTL = 5 * time.Minute

// person is what the adapter needs to know about a Slack user.
type person struct {
	Name    string
	Manager bool // workspace admin or owner
	Bot     bool
	at      time.Time
}

// userCache answers users.info, caching each user for userTTL.
type userCache struct {
	api interface {
		GetUserInfoContext(context.Context, string, ...slack.GetUserInfoOption) (*slack.User, error)
	}
	pace *pacer

	mu    sync.Mutex
	users map[string]person
}

func newUserCache(api *slack.Client, pace *pacer) *userCache {
	return &userCache{api: api, pace: pace, users: map[string]person{}}
}

// get returns the user's name and rights.
func (c *userCache) get(ctx context.Context, id string) (person, error) {
	c.mu.Lock()
	u, ok := c.users[id]
	c.mu.Unlock()
	if ok && time.Since(u.at) < userTTL {
		return u, nil
	}
	var info *slack.User
	err := c.pace.retry(ctx, func(ctx context.Context) (err error) {
		info, err = c.api.GetUserInfoContext(ctx, id)
		return err
	})
	if err != nil {
		return person{}, fmt.Errorf("users.info %s: %w", id, err)
	}
	u = person{Name: displayName(info), Manager: info.IsAdmin || info.IsOwner, Bot: info.IsBot, at: time.Now()}
	c.mu.Lock()
	c.users[id] = u
	c.mu.Unlock()
	return u, nil
}

// displayName is the name Slack shows for a user.
func displayName(u *slack.User) string {
	for _, n := range []string{u.Profile.DisplayName, u.Profile.RealName, u.RealName, u.Name} {
		if n != "" {
			return n
		}
	}
	return u.ID
}
