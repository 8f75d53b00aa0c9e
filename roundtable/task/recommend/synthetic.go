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
// must exist, in the same formats and with every quirk of the real files
// that a reader can trip on (see writeSynthItem and writeSynthUser): u.user,
// u.item in Latin-1, u.data, u1.base, u1.test, u.genre, u.occupation and
// u.info. Users have latent tastes and biases, movies latent
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
	for _, name := range []string{"u.user", "u.item", "u.data", "u1.base", "u1.test", "u.genre", "u.occupation", "u.info"} {
		files[name] = &strings.Builder{}
	}
	for u := 1; u <= users; u++ {
		writeSynthUser(files["u.user"], rng, u)
	}
	titles := make([]string, items+1)
	for i := 1; i <= items; i++ {
		titles[i] = writeSynthItem(files["u.item"], rng, i, items, appeal[i-1], titles)
	}
	writeSynthLists(files)
	ratings := 0
	for u := 1; u <= users; u++ {
		n := min(items, 10+rng.IntN(items/3+1))
		t := int64(synthStart + rng.IntN(1e7))
		for _, i := range rng.Perm(items)[:n] {
			t += int64(1 + rng.IntN(86400))
			line := fmt.Sprintf("%d\t%d\t%d\t%d\n", u, i+1, synthRating(rng, taste[u-1], appeal[i]), t)
			files["u.data"].WriteString(line)
			ratings++
			split := "u1.base"
			if rng.Float64() < synthTestShare {
				split = "u1.test"
			}
			files[split].WriteString(line)
		}
	}
	fmt.Fprintf(files["u.info"], "%d users\n%d items\n%d ratings\n", users, items, ratings)
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

var synthOccupations = []string{"administrator", "artist", "educator", "engineer", "other", "programmer", "student", "technician", "writer"}

// writeSynthUser writes a u.user line; every ninth user has a Canadian
// postcode for a zip, as some real users do ("T8H1N").
func writeSynthUser(b *strings.Builder, rng *rand.Rand, id int) {
	gender := "M"
	if rng.IntN(3) == 0 {
		gender = "F"
	}
	zip := fmt.Sprintf("%05d", rng.IntN(100000))
	if id%9 == 0 {
		zip = fmt.Sprintf("%c%d%c%d%c", 'A'+rng.IntN(26), rng.IntN(10), 'A'+rng.IntN(26), rng.IntN(10), 'A'+rng.IntN(26))
	}
	fmt.Fprintf(b, "%d|%d|%s|%s|%s\n", id, 15+rng.IntN(55), gender, synthOccupations[rng.IntN(len(synthOccupations))], zip)
}

// writeSynthLists writes u.genre (with the real file's trailing blank
// line) and u.occupation.
func writeSynthLists(files map[string]*strings.Builder) {
	for i, g := range Genres {
		fmt.Fprintf(files["u.genre"], "%s|%d\n", g, i)
	}
	files["u.genre"].WriteString("\n")
	for _, o := range synthOccupations {
		files["u.occupation"].WriteString(o + "\n")
	}
}

// unknownMovie is the ID of the movie WriteSynthetic writes as the real
// file writes movie 267: title "unknown", no dates, no URL, genre unknown.
func unknownMovie(items int) int { return min(267, items-1) }

// writeSynthItem writes a u.item line and returns the title. It gives a
// movie the genres of its strong appeal dimensions (dimension j owns
// Genres[1+6j .. 6+6j]) and reproduces the real file's quirks: Latin-1
// titles, "Title, The (year)", a title used twice under two IDs (the last
// movie repeats movie 3's, as the real file repeats some), release days
// written "01-Jan-1995" and, for every seventh movie with a day under 10,
// "4-Feb-1971", an always empty video release date, percent-encoded IMDb
// URLs, and the "unknown" movie.
func writeSynthItem(b *strings.Builder, rng *rand.Rand, id, items int, appeal []float64, titles []string) string {
	words := []string{"Café", "Señor", "Über", "Façade", "Night", "River", "Storm"}
	released := time.Date(1930+rng.IntN(68), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	title := fmt.Sprintf("%s %d (%d)", words[id%len(words)], id, released.Year())
	if id%11 == 0 {
		title = fmt.Sprintf("%s %d, The (%d)", words[id%len(words)], id, released.Year())
	}
	date := released.Format("02-Jan-2006")
	if id%7 == 0 {
		date = released.Format("2-Jan-2006")
	}
	if id == items && items > 3 {
		title = titles[3]
	}
	flags := synthFlags(rng, appeal)
	url := "http://us.imdb.com/M/title-exact?" + strings.ReplaceAll(title, " ", "%20")
	if id == unknownMovie(items) {
		title, date, url = "unknown", "", ""
		flags = "1" + strings.Repeat("|0", len(Genres)-1)
	}
	fmt.Fprintf(b, "%d|%s|%s||%s|%s\n", id, title, date, url, flags)
	return title
}

func synthFlags(rng *rand.Rand, appeal []float64) string {
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
	return strings.Join(flags, "|")
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
