package web_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

func TestWebPassesSuite(t *testing.T) {
	bottest.Run(t, func(t *testing.T) bottest.Harness { return newHarness(t) }, bottest.Options{})
}
