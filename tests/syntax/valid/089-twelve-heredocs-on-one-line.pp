$lines = [@("T0"), @("T1"), @("T2"), @("T3"), @("T4"), @("T5"), @("T6"), @("T7"), @("T8"), @("T9"), @("T10"), @("T11")]
  line for ${facts['os']['family']}
  | T0
  line for ${facts['os']['family']}
  | T1
  line for ${facts['os']['family']}
  | T2
  line for ${facts['os']['family']}
  | T3
  line for ${facts['os']['family']}
  | T4
  line for ${facts['os']['family']}
  | T5
  line for ${facts['os']['family']}
  | T6
  line for ${facts['os']['family']}
  | T7
  line for ${facts['os']['family']}
  | T8
  line for ${facts['os']['family']}
  | T9
  line for ${facts['os']['family']}
  | T10
  line for ${facts['os']['family']}
  | T11
notice($lines)
