package store_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

func TestMemAnnotationSuite(t *testing.T) {
	roundtabletest.AnnotationSuite(t, func(*testing.T) roundtable.AnnotationStore { return &roundtabletest.MemAnnotations{} })
}
