package analysis_test

import (
	"regexp"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

var hash12 = regexp.MustCompile(`^[0-9a-f]{12}$`)

// Each instrument names the version of the data or prompts behind its
// results: a hash of the syllable dictionary, the VADER lexicon, the cue
// phrases or the model prompts. A prompt's version names its wording,
// not the statement or text it is asked about, and differs between
// instruments and between the model and the offline method.
func TestInstrumentVersionsNameTheirDataAndPrompts(t *testing.T) {
	sp, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	dict, err := prose.LoadDictionary()
	if err != nil {
		t.Fatal(err)
	}
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	lb := actsModel(srv).Labeler
	v := sentiment.NewVader()
	versions := map[string]analysis.InstrumentVersion{
		"readability": analysis.VersionOf(analysis.Readability(readability.New(sp, dict))),
		"heuristic":   analysis.VersionOf(analysis.Readability(readability.New(sp, nil))),
		"vader":       analysis.VersionOf(analysis.Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: v})),
		"sentiment":   analysis.VersionOf(analysis.Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: sentiment.LLM{Labeler: lb}})),
		"cues":        analysis.VersionOf(analysis.Acts(acts.CueTagger{})),
		"acts":        analysis.VersionOf(analysis.Acts(actsModel(srv))),
		"lexicon":     analysis.VersionOf(analysis.Stance(stance.Lexicon{})),
		"stance":      analysis.VersionOf(analysis.Stance(stance.Classifier{Labeler: lb, Statement: "Taxes should rise."})),
		"stance2":     analysis.VersionOf(analysis.Stance(stance.Classifier{Labeler: lb, Statement: "Cities should ban cars."})),
		"tfidf":       analysis.VersionOf(analysis.Embedding(embed.HashedTFIDF{})),
	}
	for _, k := range []string{"readability", "vader", "cues", "acts", "lexicon", "stance"} {
		if !hash12.MatchString(versions[k].Version) {
			t.Errorf("%s: version %q, want 12 hex digits", k, versions[k].Version)
		}
	}
	if versions["heuristic"].Version != "vowel-groups" || versions["tfidf"].Version != "dim 512" {
		t.Errorf("heuristic %+v, tfidf %+v", versions["heuristic"], versions["tfidf"])
	}
	if s := versions["sentiment"].Version; s != versions["vader"].Version+"+"+(sentiment.LLM{}).Version() {
		t.Errorf("model sentiment version %q, want VADER's and the prompt's", s)
	}
	if versions["stance"] != versions["stance2"] {
		t.Errorf("the statement changed the prompt version: %+v, %+v", versions["stance"], versions["stance2"])
	}
	seen := map[string]string{}
	for k, iv := range versions {
		if k == "stance2" || k == "sentiment" {
			continue
		}
		if other, dup := seen[iv.Version]; dup {
			t.Errorf("%s and %s share version %q", k, other, iv.Version)
		}
		seen[iv.Version] = k
	}
	if label.PromptVersion(label.Question{Name: "q", Labels: []string{"a", "b"}, Instruction: "Pick one."}) ==
		label.PromptVersion(label.Question{Name: "q", Labels: []string{"a", "b"}, Instruction: "Pick one, carefully."}) {
		t.Error("a reworded instruction kept its prompt version")
	}
	if again := analysis.VersionOf(analysis.Readability(readability.New(sp, dict))); again != versions["readability"] {
		t.Errorf("the dictionary's version changed between loads: %+v, %+v", again, versions["readability"])
	}
}
