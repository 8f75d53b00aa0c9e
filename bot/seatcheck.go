package bot

import "github.com/roundtable-ai/roundtable/roundtable"

// checkSeats refuses, before a table is created, a bot agent that could
// not act at it: otherwise the table would exist but fail on every event.
func (s *Service) checkSeats(cfg roundtable.Config, task roundtable.Task) error {
	for _, p := range cfg.Participants {
		if p.Kind != roundtable.Bot {
			continue
		}
		var err error
		if s.deps.Seatable != nil {
			err = s.deps.Seatable(p, cfg)
		}
		if err == nil {
			_, err = s.deps.Agent(p, task)
		}
		if err != nil {
			return roundtable.Errorf(roundtable.Invalid, "bot agent %s cannot sit at this table: %v", p.Name, err)
		}
	}
	return s.checkAudit(cfg)
}

// checkAudit refuses an audit whose instruments cannot be built (a stance
// audit without a language model), which would otherwise run the table
// unaudited and tell only the server's log.
func (s *Service) checkAudit(cfg roundtable.Config) error {
	if cfg.Audit == nil || len(cfg.Audit.Instruments) == 0 || s.deps.Audit.Instruments == nil {
		return nil
	}
	if _, err := s.deps.Audit.Instruments(*cfg.Audit); err != nil {
		return roundtable.Errorf(roundtable.Invalid, "audit: %v", err)
	}
	return nil
}
