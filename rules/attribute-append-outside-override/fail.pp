file { '/tmp/x': require +> Package['a'] }
#                ^ error[attribute-append-outside-override]: Illegal +> operation on attribute require. This operator can not be used in a Resource Expression
