package main

import (
	"github.com/spf13/cobra"
)

type annotateFlags struct {
	instrument, method       string
	statement, complement    string
	samples, maxTurns, demoK int
	endpoint, negotiate      string
	embeddingModel, demos    string
	demosPlain               bool
	gold                     string
	db                       string
	tables                   []string
	llm                      llmFlags
}

func (a *App) annotateCmd() *cobra.Command {
	var f annotateFlags
	cmd := &cobra.Command{
		Use:   "annotate --instrument readability|dialogue-acts|embedding|sentiment|stance < in.jsonl > out.jsonl",
		Short: "Measure texts with an analysis instrument: JSON Lines in, JSON Lines out",
		Long: `Reads JSON Lines {"id":"…","text":"…"} on stdin and writes, for each line,
one JSON object with the same id and the instrument's fields:

  readability    words, sentences, syllables, fk_grade (Flesch-Kincaid grade)
  dialogue-acts  acts (Inform, Request, Confirm, Summarize, Evaluate, Propose,
                 Compromise, Defend, Accept, Decline, Others)
  embedding      vector
  sentiment      compound, pos, neu, neg (VADER on the whole text),
                 arguments (each text and score) and score (their mean, S_O)
  stance         presence, label, level (2..-2) and votes (label → count),
                 relative to --statement (and --complement)

--method picks how: readability cmudict (default: syllables from the CMU
Pronouncing Dictionary, a vowel-group heuristic for words it lacks) or
vowel-groups (the heuristic alone); sentiment vader (default) or llm; dialogue-acts
cue-phrases (default, offline) or llm; embedding hashed-tfidf (default,
offline) or llm (the endpoint's /v1/embeddings); stance llm (default) or
lexicon (an offline keyword classifier, a rough instrument; no --statement
needed).
Model-backed methods use the first [[llm]] endpoint (or --endpoint, or the
--llm-* flags), asked --samples times with a majority; --negotiate A,B[,C]
labels by negotiation between the named endpoints instead. --demos shows
the model the --demos-k labelled examples nearest each text; each model is
first asked for its own reasoning chain for each example it is shown (and,
negotiating as discriminator, its explanation of why the labels are
right), as the LLM negotiation paper builds its demonstrations;
--demos-plain shows text and labels alone. --gold FILE (JSON Lines
{"id":…,"label":"…"} or "labels":[…]) scores the labels against gold: a
line with a gold label also gets "gold" and "correct", and the accuracy and
Cohen's kappa over them are written to stderr at the end. A line whose
model failed is written with "error" and the command exits 1 at the end; a
malformed line stops it with exit status 2 and the line number.

With --db FILE it reads no stdin: it measures every message of the stored
tables (or of each --table ID) and stores the results as annotations beside
each table's log (never in it, never shown to agents). A message that already
has a result from the same instrument and model is not measured again, so a
re-run asks no model; one whose model failed is stored as missing, with the
reason, and retried on the next run. Each line is {"id":"TABLE/SEQ","table",
"seq", and the fields above, or "missing"}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := LoadConfig(a.configPath)
			if err != nil {
				return err
			}
			in, err := a.buildInstrument(cmd.Context(), cfg, f)
			if err != nil {
				return err
			}
			if f.db != "" && f.gold != "" {
				return usagef("--gold scores the lines read from stdin; it does not apply with --db")
			}
			if f.db != "" {
				return a.annotateStore(cmd.Context(), cfg, f.db, f.tables, in, a.Stdout)
			}
			if len(f.tables) > 0 {
				return usagef("--table needs --db FILE")
			}
			return a.annotateLines(cmd.Context(), in, f.gold)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.instrument, "instrument", "", "readability, dialogue-acts, embedding, sentiment or stance (required)")
	fl.StringVar(&f.method, "method", "", "readability: cmudict or vowel-groups; sentiment: vader or llm; dialogue-acts: cue-phrases or llm; embedding: hashed-tfidf or llm; stance: llm or lexicon")
	fl.StringVar(&f.statement, "statement", "", "stance: the statement under audit")
	fl.StringVar(&f.complement, "complement", "", "stance: its complement (default \"The opposite of: STATEMENT\")")
	fl.IntVar(&f.samples, "samples", 10, "model answers per label, K; the majority wins and a tie is asked again")
	fl.StringVar(&f.endpoint, "endpoint", "", "the [[llm]] endpoint to ask (default the first)")
	fl.StringVar(&f.negotiate, "negotiate", "", "label by negotiation between two or three [[llm]] endpoints, e.g. gpt,llama[,mistral]")
	fl.IntVar(&f.maxTurns, "max-turns", 3, "negotiation: turns per session before roles flip")
	fl.StringVar(&f.demos, "demos", "", "JSON Lines file of labelled examples {\"text\":…,\"labels\":[…]}; the nearest are shown to the model")
	fl.IntVar(&f.demoK, "demos-k", 3, "how many of the nearest labelled examples to show")
	fl.BoolVar(&f.demosPlain, "demos-plain", false, "show the demonstrations as text and labels alone, asking the models for no reasoning chain")
	fl.StringVar(&f.gold, "gold", "", "JSON Lines file of gold labels {\"id\":…,\"label\":\"…\"}: score the labels against them (accuracy and Cohen's kappa, on stderr)")
	fl.StringVar(&f.embeddingModel, "embedding-model", "text-embedding-3-small", "embedding --method llm: the model of /v1/embeddings")
	fl.StringVar(&f.db, "db", "", "annotate the messages of the tables in this database (or etcd: the cluster of [store]) instead of stdin, storing the annotations")
	fl.StringSliceVar(&f.tables, "table", nil, "with --db: the table(s) to annotate (default all)")
	f.llm.register(fl)
	return cmd
}
