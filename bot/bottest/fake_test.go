package bottest_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

func TestFakePassesSuite(t *testing.T) {
	bottest.Run(t, func(t *testing.T) bottest.Harness { return bottest.NewFake() }, bottest.Options{})
}
