package experiment_test

import (
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// experimentInstruments are analyze's offline instruments: readability,
// cue-phrase dialogue acts and the stance lexicon.
func experimentInstruments() (experiment.AnalyzeOptions, error) {
	read, err := analysis.New(analysis.Spec{Instrument: "readability"})
	if err != nil {
		return experiment.AnalyzeOptions{}, err
	}
	acts, err := analysis.New(analysis.Spec{Instrument: "dialogue-acts"})
	lexicon := analysis.Stance(stance.Lexicon{})
	return experiment.AnalyzeOptions{Readability: read, Acts: acts, Concurrency: 2,
		Stance: protocol.Instruments{Stance: func(string, string) analysis.Instrument { return lexicon }, StanceModel: stance.LexiconModel}}, err
}
