package exchange_test

import (
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
)

func Example() {
	e, err := exchange.New(3, exchange.Asymmetric)
	if err != nil {
		panic(err)
	}
	umax, best := e.UMax()
	fmt.Printf("U_max = %.4f at %s\n", umax, e.Canonical(best))

	a, err := exchange.ParseAllocation([]byte(`{"allocation": [[60,20,20],[20,60,20],[20,20,50]]}`))
	if err != nil {
		panic(err)
	}
	fmt.Println("invalid:", e.Validate(a))
	a[2][2] = 60
	m := e.Measure([]exchange.RoundOutcome{{}, {Decision: a}, {Decision: best}})
	fmt.Printf("U@2 = %.3f, U@3 = %.3f, AUC@5 = %.3f, rigidity = %.2f\n", m.At(2), m.At(3), m.AUC(5), m.Rigidity)
	// Output:
	// U_max = 158.3409 at [[80,10,10],[10,80,10],[10,10,80]]
	// invalid: good 3 sums to 90, want 100
	// U@2 = 0.913, U@3 = 1.000, AUC@5 = 3.913, rigidity = 0.33
}

func ExampleStrategy() {
	e, _ := exchange.New(3, exchange.Asymmetric)
	s := exchange.Strategy{Economy: e, Self: 1, Seed: 7}
	msg := s.Statement(1)
	fmt.Println(msg)
	w, ok := exchange.ParseStatement(msg, 3)
	fmt.Println(w, ok)
	// Output:
	// Agent 2 here. I care most about good 2 (weight 0.8); goods 1 and 3 matter less to me. My weights: good 1 = 0.1, good 2 = 0.8, good 3 = 0.1.
	// [0.1 0.8 0.1] true
}
