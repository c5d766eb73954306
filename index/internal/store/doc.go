// Package store holds the bundle's files beside bleve that are read by
// position in catalog order: the record stores (meta: each item's name,
// server and name words; objects: each item's MCP object, in zstd blocks)
// and the document order (each bleve document's catalog position, BM25's
// tie-break). Their formats are documented where they are written
// (store.go, docorder.go); readers check their bounds, so a damaged file is
// an error, never a read outside it. Nothing is loaded when a store opens:
// a record is one positioned read of its block.
package store
