package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// maxProfileBytes bounds the ballot profile read from stdin.
const maxProfileBytes = 64 << 20

func (a *App) tallyCmd() *cobra.Command {
	var rule, tie string
	var participants, quorum int
	var seed int64
	cmd := &cobra.Command{
		Use:   "tally --rule RULE [--participants N] [--tie POLICY] < profile.json",
		Short: "Decide one ballot profile (JSON on stdin) and print the decision as JSON",
		Long: `Reads a ballot profile as JSON on stdin, e.g.
  {"participants": 4, "candidates": ["A","B","C"], "incumbent": "A",
   "ballots": [{"voter":"v1","choice":"B"}, {"voter":"v2","abstain":true}]}
and prints {"winner": ..., "totals": {...}, "tied": [...], "rejected": [...]}.
Each ballot uses the field its rule reads: choice (unanimous, majority,
plurality), scores (rated), ranking (ranked, borda, irv, copeland, schulze), points
(cumulative), approve (approval). Exit status 0 when decided (winner or
none), 2 when the input is malformed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := vote.ParseRule(rule)
			if err != nil {
				return usagef("--rule: %v", err)
			}
			tp, err := vote.ParseTiePolicy(tie)
			if err != nil {
				return usagef("--tie: %v", err)
			}
			data, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), maxProfileBytes+1))
			if err != nil {
				return fmt.Errorf("read profile: %w", err)
			}
			if len(data) > maxProfileBytes {
				return usagef("profile: larger than %d bytes", maxProfileBytes)
			}
			prof, err := vote.ParseProfile(data)
			if err != nil {
				return usagef("profile: %v", err)
			}
			if cmd.Flags().Changed("participants") {
				prof.Participants = participants
			}
			if quorum < 0 {
				return usagef("--quorum: %d is negative", quorum)
			}
			res, err := vote.Tally(r, prof, vote.Options{Tie: tp, Seed: seed, Quorum: quorum})
			if err != nil {
				return usagef("profile: %v", err)
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(res)
		},
	}
	f := cmd.Flags()
	f.StringVar(&rule, "rule", "", "social-choice rule: "+ruleNames())
	f.IntVar(&participants, "participants", 0, "number of participants N (default: from the profile, else the number of voters)")
	f.StringVar(&tie, "tie", "defer", "tie policy: defer, random or incumbent")
	f.Int64Var(&seed, "seed", 1, "seed of the random tie policy")
	f.IntVar(&quorum, "quorum", 0, "ballots (abstentions included) needed for a decision; 0: no quorum")
	_ = cmd.MarkFlagRequired("rule")
	return cmd
}

func ruleNames() string { return strings.Join(ruleList(), ", ") }
