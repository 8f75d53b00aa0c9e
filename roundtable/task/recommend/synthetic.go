package recommend

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// synthetic describes the latent structure WriteSynthetic draws ratings
// from.
const (
	synthDims      = 3    // latent taste dimensions
	synthMean      = 3.6  // mean rating before rounding
	synthTaste     = 0.9  // weight of taste . appeal
	synthNoise     = 0.45 // standard deviation of per-rating noise
	synthTestShare = 0.2  // share of each user's ratings in u1.test
	synthStart     = 874724710
)

// WriteSynthetic writes a small MovieLens-100k look-alike to dir, which
// must exist, in the same formats (u.user, u.item in Latin-1 with some
// accented titles, u.data, u1.base, u1.test). Users have latent tastes and biases, movies latent
// appeals, biases and genres that follow their appeal, so similar users
// rate alike and collaborative filtering beats guessing. Each user rates
// between 10 and about a third of the movies; a fifth of each user's
// ratings go to u1.test. The same arguments always write the same files.
func WriteSynthetic(dir string, users, items int, seed int64) error {
	if users < 2 || items < 10 {
		return fmt.Errorf("write synthetic MovieLens: want at least 2 users and 10 items, got %d and %d", users, items)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	taste, appeal := latent(rng, users), latent(rng, items)
	files := map[string]*strings.Builder{}
	for _, name := range []string{"u.user", "u.item", "u.data", "u1.base", "u1.test"} {
		files[name] = &strings.Builder{}
	}
	for u := 1; u <= users; u++ {
		writeSynthUser(files["u.user"], rng, u)
	}
	for i := 1; i <= items; i++ {
		writeSynthItem(files["u.item"], rng, i, appeal[i-1])
	}
	for u := 1; u <= users; u++ {
		n := min(items, 10+rng.IntN(items/3+1))
		t := int64(synthStart + rng.IntN(1e7))
		for _, i := range rng.Perm(items)[:n] {
			t += int64(1 + rng.IntN(86400))
			line := fmt.Sprintf("%d\t%d\t%d\t%d\n", u, i+1, synthRating(rng, taste[u-1], appeal[i]), t)
			files["u.data"].WriteString(line)
			split := "u1.base"
			if rng.Float64() < synthTestShare {
				split = "u1.test"
			}
			files[split].WriteString(line)
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), latin1Bytes(b.String()), 0o644); err != nil {
			return fmt.Errorf("write synthetic MovieLens: %w", err)
		}
	}
	return nil
}

// latent draws n vectors whose first entry is a bias and the rest a taste
// or appeal.
func latent(rng *rand.Rand, n int) [][]float64 {
	v := make([][]float64, n)
	for i := range v {
		v[i] = make([]float64, 1+synthDims)
		v[i][0] = 0.5 * rng.NormFloat64()
		for j := 1; j <= synthDims; j++ {
			v[i][j] = rng.NormFloat64()
		}
	}
	return v
}

func synthRating(rng *rand.Rand, user, item []float64) int {
	x := synthMean + user[0] + item[0] + synthNoise*rng.NormFloat64()
	x += synthTaste * dot(user[1:], item[1:]) / math.Sqrt(synthDims)
	return int(min(5, max(1, math.Round(x))))
}

func writeSynthUser(b *strings.Builder, rng *rand.Rand, id int) {
	occupations := []string{"student", "engineer", "artist", "educator", "other", "programmer", "writer"}
	gender := "M"
	if rng.IntN(3) == 0 {
		gender = "F"
	}
	fmt.Fprintf(b, "%d|%d|%s|%s|%05d\n", id, 15+rng.IntN(55), gender, occupations[rng.IntN(len(occupations))], rng.IntN(100000))
}

// writeSynthItem gives a movie the genres of its strong appeal dimensions:
// dimension j owns Genres[1+6j .. 6+6j].
func writeSynthItem(b *strings.Builder, rng *rand.Rand, id int, appeal []float64) {
	words := []string{"Café", "Señor", "Über", "Façade", "Night", "River", "Storm"}
	released := time.Date(1930+rng.IntN(68), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	title := fmt.Sprintf("%s %d (%d)", words[id%len(words)], id, released.Year())
	date := released.Format(releaseLayout)
	if id%25 == 0 {
		title, date = "unknown", ""
	}
	flags := make([]string, len(Genres))
	for g := range flags {
		flags[g] = "0"
	}
	for j, a := range appeal[1:] {
		if a > 0.5 {
			flags[1+6*j+rng.IntN(6)] = "1"
		}
	}
	if !strings.Contains(strings.Join(flags, ""), "1") {
		flags[0] = "1"
	}
	fmt.Fprintf(b, "%d|%s|%s||http://us.imdb.com/M/title-exact?Film%%20%d|%s\n", id, title, date, id, strings.Join(flags, "|"))
}

// latin1Bytes encodes s in ISO-8859-1, writing '?' for runes it lacks.
func latin1Bytes(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return b
}
