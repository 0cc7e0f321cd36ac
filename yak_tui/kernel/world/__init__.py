"""The world as data: documents and their schema, validation, the model, tables, authoring, the demo."""
