import pyarrow as pa
import pytest

import tessera

pl = pytest.importorskip("polars")
pd = pytest.importorskip("pandas")


def test_polars_series_round_trip():
    ff1 = tessera.FF1(bytes(16))
    s = pl.Series("card", ["4111111111111111", None, "5500000000000004"])
    out = ff1.encrypt_batch(s)
    assert out.to_pylist() == [ff1.encrypt("4111111111111111"), None, ff1.encrypt("5500000000000004")]
    back = pl.Series("card", ff1.decrypt_batch(pl.Series(out)))
    assert back.to_list() == s.to_list()
    # Several chunks.
    s2 = pl.concat([s, s], rechunk=False)
    assert s2.n_chunks() == 2
    assert ff1.encrypt_batch(s2).to_pylist() == out.to_pylist() * 2


def test_polars_helper():
    from tessera import polars as tp

    ff1 = tessera.FF1(bytes(16))
    siv = tessera.AesSiv(bytes(32))
    df = pl.DataFrame({"card": ["4111111111111111", None, "5500000000000004"], "name": ["a", "b", None], "n": [1, 2, 3]})
    enc = df.with_columns(tp.encrypt("card", ff1), tp.encrypt(pl.col("name"), siv, ad=[b"name"]))
    assert enc["card"].to_list() == ff1.encrypt_batch(df["card"]).to_pylist()
    assert enc["name"].to_list() == siv.encrypt_batch(df["name"], ad=[b"name"]).to_pylist()
    assert enc["n"].to_list() == [1, 2, 3]
    dec = enc.with_columns(tp.decrypt("card", ff1), tp.decrypt("name", siv, ad=[b"name"]))
    assert dec.equals(df)
    # Lazy frames too.
    lazy = df.lazy().with_columns(tp.encrypt("card", ff1, tweak=b"t")).collect()
    assert lazy["card"].to_list() == ff1.encrypt_batch(df["card"], tweak=b"t").to_pylist()


def test_pandas_arrow_dtype_round_trip():
    ff31 = tessera.FF3_1(bytes(range(16)))
    s = pd.Series(["890121234567890000", None, "123456"], dtype=pd.ArrowDtype(pa.string()))
    out = ff31.encrypt_batch(s, tweak=bytes(7))
    assert out.to_pylist()[1] is None and out.to_pylist()[0] == ff31.encrypt("890121234567890000", tweak=bytes(7))
    enc = pd.Series(out, dtype=pd.ArrowDtype(out.type), index=s.index)
    back = ff31.decrypt_batch(enc, tweak=bytes(7))
    assert pd.Series(back.to_pandas(types_mapper=pd.ArrowDtype)).equals(s) or back.to_pylist() == s.tolist()
    assert back.to_pylist() == [x if isinstance(x, str) else None for x in s.tolist()]
    # Through the ExtensionArray and a DataFrame column.
    df = pd.DataFrame({"v": s})
    assert ff31.encrypt_batch(df["v"].array, tweak=bytes(7)).equals(out)
    siv = tessera.AesSiv(bytes(32))
    e = siv.encrypt_batch(df["v"])
    assert siv.decrypt_batch(pd.Series(e, dtype=pd.ArrowDtype(pa.string()))).to_pylist() == back.to_pylist()
