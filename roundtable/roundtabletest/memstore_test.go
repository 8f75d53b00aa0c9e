package roundtabletest_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

func TestMemStore(t *testing.T) {
	roundtabletest.StoreSuite(t, func(t *testing.T) roundtable.Store { return roundtabletest.NewMemStore() })
}

func TestMemStoreSnapshots(t *testing.T) {
	roundtabletest.SnapshotSuite(t, func(t *testing.T) roundtable.SnapshotStore { return roundtabletest.NewMemStore() })
}
