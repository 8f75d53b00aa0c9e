package exchange

import (
	"fmt"
	"reflect"
	"testing"
)

func TestStatementMemoReadsAsParseStatementAndStaysBounded(t *testing.T) {
	e, err := New(3, Asymmetric)
	if err != nil {
		t.Fatal(err)
	}
	var memo statementMemo
	texts := []string{Strategy{Economy: e, Self: 1}.Statement(1), Strategy{Economy: e, Self: 1}.Statement(2), "no weights here"}
	for range 2 {
		for _, text := range texts {
			w, ok := memo.parse(text, 3)
			if ww, wok := ParseStatement(text, 3); ok != wok || !reflect.DeepEqual(w, ww) {
				t.Errorf("memo reads %q as %v %v, ParseStatement as %v %v", text, w, ok, ww, wok)
			}
		}
	}
	for i := range 2 * maxMemoStatements {
		memo.parse(fmt.Sprintf("good 1 = %d", i), 3)
	}
	if n := memo.n.Load(); n != maxMemoStatements {
		t.Errorf("the memo holds %d texts, want at most %d", n, maxMemoStatements)
	}
}
