package agent

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Persona is who an agent plays.
type Persona struct {
	Name       string
	Background string
	Goal       string
	Stance     string
}

// PersonaOf returns the persona of a participant.
func PersonaOf(p roundtable.Participant) Persona {
	return Persona{Name: p.Name, Background: p.Background, Goal: p.Goal, Stance: p.Stance}
}

// systemPrompt is the part of every prompt that stays the same for a
// participant during a whole table, so that provider prompt caches hit.
func systemPrompt(v roundtable.View) string {
	var b strings.Builder
	me := PersonaOf(v.Self)
	brief := briefingOf(v)
	what := cmp.Or(brief.Setting, "participants of a round table that has to reach a decision as a group")
	fmt.Fprintf(&b, "You are %s, one of %d %s. The others may be language models or people.\n", me.Name, len(v.Participants), what)
	if v.Title != "" {
		fmt.Fprintf(&b, "The table is called %q.\n", v.Title)
	}
	b.WriteString(scheduleText(v))
	if !brief.NoRule {
		section(&b, "Voting rule", v.Rule.Describe())
	}
	section(&b, "The task", v.Brief)
	if strings.TrimSpace(v.Private) != "" {
		section(&b, "Known only to you", v.Private)
	}
	if brief.Persona == roundtable.PersonaStance {
		section(&b, "Who you are", chatroomPersona(v))
	} else {
		section(&b, "Who you are", personaText(me))
	}
	section(&b, "Participants", participantList(v))
	b.WriteString("\nAnswer every request with one JSON object and nothing else.\n")
	return b.String()
}

// briefingOf is what v's protocol tells the agent: the zero Briefing
// (RoundTable's deliberation) when it tells nothing.
func briefingOf(v roundtable.View) roundtable.Briefing {
	if v.Briefing == nil {
		return roundtable.Briefing{}
	}
	return *v.Briefing
}

func protocolText(rounds int) string {
	return fmt.Sprintf(`
## How the table works
The table meets for %d rounds, and nothing is decided when it starts. Every round has three phases.
1. Messages. Everyone writes at most one message, all at the same time, to some participants or to everyone. Nobody sees the others' messages before the phase ends; then every message is shown to every participant, whoever it was addressed to.
2. Proposals. Everyone may put forward a solution or pass. Whoever passes keeps their most recent earlier proposal in the running. Think before you propose: your reasoning stays private.
3. Vote. The candidates are each participant's most recent proposal and the decision in force, with identical proposals merged into one candidate. Everyone votes under the rule below; a ballot that breaks the rule is thrown out. A winning candidate becomes the decision in force; without a winner the previous decision stays. Everyone sees the full tally.
When the last round ends, the decision in force is the table's result.
`, rounds)
}

func section(b *strings.Builder, title, body string) {
	fmt.Fprintf(b, "\n## %s\n%s\n", title, strings.TrimSpace(body))
}

func personaText(p Persona) string {
	lines := []string{"Name: " + p.Name}
	for _, kv := range [][2]string{{"Background", p.Background}, {"Goal", p.Goal}, {"Stance", p.Stance}} {
		if strings.TrimSpace(kv[1]) != "" {
			lines = append(lines, kv[0]+": "+strings.TrimSpace(kv[1]))
		}
	}
	return strings.Join(lines, "\n")
}

func participantList(v roundtable.View) string {
	lines := make([]string, len(v.Participants))
	for i, p := range v.Participants {
		lines[i] = "- " + p.Name
		if p.ID == v.Self.ID {
			lines[i] += " (you)"
		}
	}
	return strings.Join(lines, "\n")
}

// phaseHeader names the round and phase being asked about.
func phaseHeader(v roundtable.View, what string) string {
	return fmt.Sprintf("\n## Round %d of %d: %s\n", v.Round, v.Rounds, what)
}

func messageInstruction(v roundtable.View) string {
	return phaseHeader(v, "message phase") +
		"Write your one message for this round: share what you know, answer questions, make your case or ask the others something. " +
		`List in "to" the names of the participants you are writing to, or leave it empty to write to everyone ` +
		"(everyone reads all messages once the phase ends).\n"
}

func proposalInstruction(v roundtable.View, structured bool) string {
	var b strings.Builder
	b.WriteString(phaseHeader(v, "proposal phase"))
	if v.Own != nil {
		fmt.Fprintf(&b, "Your latest proposal: %s\n", quote(v.Own.Text))
	} else {
		b.WriteString("You have not proposed anything yet.\n")
	}
	b.WriteString(decisionLine(v.Decision))
	b.WriteString(`Think it through step by step in "reasoning"; nobody else will read it. ` +
		`Then either set "skip" to false and put your proposal in "proposal", or set "skip" to true to keep your latest proposal as your candidate.`)
	if structured {
		b.WriteString(` "proposal" must follow the task's format.`)
	}
	b.WriteString("\n")
	return b.String()
}

func voteInstruction(v roundtable.View) string {
	var b strings.Builder
	b.WriteString(phaseHeader(v, "vote"))
	b.WriteString("Candidates:\n")
	for _, c := range v.Candidates {
		fmt.Fprintf(&b, "- %s: %s%s\n", c.ID, quote(c.Proposal.Text), candidateNote(v, c))
	}
	if t := lastTally(v); t != "" {
		b.WriteString(t)
	}
	b.WriteString(ballotHowTo(v.Rule, len(v.Candidates)))
	b.WriteString(` Explain your vote briefly in "reasoning". To abstain, set "abstain" to true; the other fields are then ignored.` + "\n")
	return b.String()
}

// ballotHowTo says how to fill the ballot field of rule.
func ballotHowTo(rule vote.Rule, n int) string {
	switch rule.Format() {
	case vote.FormatChoice:
		return `Put the ID of the one candidate you vote for in "choice".`
	case vote.FormatScores:
		return `In "scores", give every candidate ID a whole number from 1 (worst) to 5 (best).`
	case vote.FormatPoints:
		return fmt.Sprintf(`In "points", give each candidate ID a whole number of points, 0 or more, %d in total at most.`, n)
	case vote.FormatApprove:
		return `List in "approve" the IDs of every candidate you find acceptable.`
	}
	if rule == vote.Borda {
		return fmt.Sprintf(`List all %d candidate IDs in "ranking", best first, each exactly once.`, n)
	}
	return `List candidate IDs in "ranking", best first, each at most once; you may leave out candidates you do not support.`
}

func candidateNote(v roundtable.View, c roundtable.Candidate) string {
	var parts []string
	if len(c.Proposers) > 0 {
		names := make([]string, len(c.Proposers))
		for i, id := range c.Proposers {
			names[i] = v.Name(id)
		}
		parts = append(parts, "proposed by "+strings.Join(names, ", "))
	}
	if c.Incumbent {
		parts = append(parts, "the decision in force")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func decisionLine(d *roundtable.Candidate) string {
	if d == nil {
		return "Nothing has been decided yet.\n"
	}
	return "Decision in force: " + quote(d.Proposal.Text) + "\n"
}

// repairPrompt asks again after an invalid answer.
func repairPrompt(err error) string {
	return "That answer cannot be used: " + err.Error() + ". Reply again with one corrected JSON object and nothing else."
}

// schemaHint puts the schema in the prompt for endpoints that do not
// enforce it.
func schemaHint(s *Schema) string {
	return fmt.Sprintf("\nReply with one JSON object that follows the JSON schema %q:\n%s\n", s.Name, s.JSON)
}

// quote shows a proposal on one line, quoted.
func quote(s string) string {
	return fmt.Sprintf("%q", strings.Join(strings.Fields(s), " "))
}
