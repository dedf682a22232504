// Public surface of src/lex (owners add their exports here).
export {};
