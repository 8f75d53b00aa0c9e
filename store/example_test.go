package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/roundtable-ai/roundtable/store"
)

func ExampleDB_Bind() {
	dir, err := os.MkdirTemp("", "store-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(filepath.Join(dir, "roundtable.db"), store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	ctx := context.Background()
	if err := db.Bind(ctx, "discord:1234", "lot-42"); err != nil {
		log.Fatal(err)
	}
	table, ok, err := db.Lookup(ctx, "discord:1234")
	fmt.Println(table, ok, err)
	// Output: lot-42 true <nil>
}
