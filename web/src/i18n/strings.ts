/** The shape every language must fill: the reference resource's keys, any text. */
export type Strings<T> = { readonly [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
