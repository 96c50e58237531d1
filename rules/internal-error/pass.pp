# Any file pupcheck checks to the end.
notice('hello')
