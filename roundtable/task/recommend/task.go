package recommend

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Case is one prediction problem: a user, a movie from u1.test and the
// rating the user gave it, which the table must not see.
type Case struct {
	User   int
	Movie  int
	Rating int
}

// Cases picks n test ratings at random without replacement (all of them,
// shuffled, when n <= 0 or n exceeds u1.test). The same dataset and seed
// always give the same cases in the same order.
func Cases(ds *Dataset, n int, seed int64) []Case {
	rng := rand.New(rand.NewPCG(uint64(seed), 0xca5e))
	perm := rng.Perm(len(ds.Test))
	if n <= 0 || n > len(perm) {
		n = len(perm)
	}
	cases := make([]Case, n)
	for i, j := range perm[:n] {
		r := ds.Test[j]
		cases[i] = Case{User: r.User, Movie: r.Movie, Rating: r.Rating}
	}
	return cases
}

// Task is the recommendation task for one case. It holds only values
// computed by its constructor and is safe for concurrent use.
type Task struct {
	c      Case
	title  string
	tables Tables
}

var (
	_ roundtable.StructuredTask = (*Task)(nil)
	_ roundtable.PrivateBriefer = (*Task)(nil)
)

// NewTask builds the task for c with the dataset's cached factorisation
// (Dataset.Factors) and DefaultRows rows of history.
func NewTask(ds *Dataset, c Case) *Task {
	return NewTaskWith(ds, ds.Factors(), c, DefaultRows)
}

// NewTaskWith builds the task for c with the factorisation f and at most
// rows rows of history per table.
func NewTaskWith(ds *Dataset, f *Factors, c Case, rows int) *Task {
	return &Task{c: c, title: ds.Movies[c.Movie].Title, tables: ds.Tables(f, c, rows)}
}

// Spec is the task's spec for a table's config: the user and the movie as
// parameters, and the true rating as private ground truth (see
// roundtable.TaskSpec.Private), so that the log holds what the table was
// about and can be re-scored from an export.
func (t *Task) Spec() roundtable.TaskSpec {
	return roundtable.TaskSpec{Kind: t.Kind(),
		Params:  map[string]string{"user": strconv.Itoa(t.c.User), "movie": strconv.Itoa(t.c.Movie)},
		Private: map[string]string{"rating": strconv.Itoa(t.c.Rating)}}
}

// CaseOf reads a case back from a table's task spec (Task.Spec).
func CaseOf(spec roundtable.TaskSpec) (Case, error) {
	var c Case
	for _, f := range []struct {
		name string
		m    map[string]string
		dst  *int
	}{{"params.user", spec.Params, &c.User}, {"params.movie", spec.Params, &c.Movie}, {"private.rating", spec.Private, &c.Rating}} {
		key := f.name[strings.IndexByte(f.name, '.')+1:]
		n, err := strconv.Atoi(f.m[key])
		if err != nil {
			return Case{}, fmt.Errorf("recommendation task spec: %s %q is not a number", f.name, f.m[key])
		}
		*f.dst = n
	}
	if c.Rating < 1 || c.Rating > 5 {
		return Case{}, fmt.Errorf("recommendation task spec: private.rating %d is not in 1..5", c.Rating)
	}
	return c, nil
}

// Case returns the task's case, including the true rating.
func (t *Task) Case() Case { return t.c }

// Tables returns the three private tables.
func (t *Task) Tables() Tables { return t.tables }

// Kind implements roundtable.Task.
func (t *Task) Kind() string { return "recommendation" }

// Brief implements roundtable.Task. It does not reveal the true rating.
func (t *Task) Brief() string {
	return fmt.Sprintf(`Predict together the rating (1 to 5 stars) that MovieLens user %d gave the movie %q.
There are three agents, each with one private table: the BasicInfo agent sees the user's demographics and the movie's title, release date and genres; the UserHistory agent sees the user's ratings of other movies; the MovieHistory agent sees other users' ratings of this movie, most similar users first. No one sees another agent's table, so share what yours shows.
A proposal is a whole-number rating from 1 to 5, as data {"rating": 4} or text "rating 4". The group's output is the accepted rating, scored by its distance from the user's true rating.`, t.c.User, t.title)
}

// roles names the agent that gets each table, in PrivateBrief order.
var roles = [3]string{"BasicInfo", "UserHistory", "MovieHistory"}

// PrivateBrief implements roundtable.PrivateBriefer: participant i gets
// basicInfo, userHistory or movieHistory as i mod 3 is 0, 1 or 2.
func (t *Task) PrivateBrief(i int) string {
	k := (i%3 + 3) % 3
	table := [3]string{t.tables.BasicInfo, t.tables.UserHistory, t.tables.MovieHistory}[k]
	return fmt.Sprintf("You are the %s agent. Your data:\n%s", roles[k], table)
}

// Normalize implements roundtable.Task: the rating is read by ParseRating
// and the proposal rewritten as Text "rating 4", Data {"rating":4}.
func (t *Task) Normalize(p roundtable.Proposal) (roundtable.Proposal, error) {
	r, err := ParseRating(p)
	if err != nil {
		return roundtable.Proposal{}, err
	}
	return RatingProposal(r), nil
}

// Key implements roundtable.Task: the rating, "4"; a proposal without a
// valid rating keys on its canonical text.
func (t *Task) Key(p roundtable.Proposal) string {
	if r, err := ParseRating(p); err == nil {
		return strconv.Itoa(r)
	}
	return "invalid:" + roundtable.CanonicalText(p.Text)
}

// ProposalSchema implements roundtable.StructuredTask.
func (t *Task) ProposalSchema() (string, json.RawMessage) {
	return "proposal_recommendation", json.RawMessage(`{"type":"object",` +
		`"properties":{"rating":{"type":"integer","minimum":1,"maximum":5,` +
		`"description":"predicted rating of the movie by the user, 1 to 5 stars"}},` +
		`"required":["rating"],"additionalProperties":false}`)
}

// RatingProposal is the canonical proposal of rating r.
func RatingProposal(r int) roundtable.Proposal {
	return roundtable.Proposal{Text: "rating " + strconv.Itoa(r), Data: json.RawMessage(`{"rating":` + strconv.Itoa(r) + `}`)}
}
