package bot

import (
	"context"
	"fmt"
)

// Syncer is an optional capability of a Platform that shows a post at
// once and saves it after (the web channel saves its rooms in batches):
// Sync returns once every post and edit made before it is saved. The bot
// writes its delivery records only after its platforms' Sync, so a post
// that a crash took from the platform is still undelivered in the bot's
// records and is posted again at the next start.
type Syncer interface {
	Sync(ctx context.Context) error
}

// syncPlatforms waits until what every platform was given is saved.
func (s *Service) syncPlatforms(ctx context.Context) error {
	for _, p := range s.platforms {
		if sy, ok := p.(Syncer); ok {
			if err := sy.Sync(ctx); err != nil {
				return fmt.Errorf("%s: %w", p.Name(), err)
			}
		}
	}
	return nil
}
